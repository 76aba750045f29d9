"""A non-leaf tensor's .grad stays None, with a warning, unless retain_grad() was called before backward()."""
import warnings

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
kept = x * 2
kept.retain_grad()
(y * y + kept * kept).sum().backward()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("y.grad:", y.grad)
print("warning:", f"{caught[0].category.__name__}: {caught[0].message}")
print("kept.grad:", kept.grad)
print("kept.retains_grad:", kept.retains_grad)
print("x.retains_grad:", x.retains_grad)
print("x.grad:", x.grad)
