"""A clone is not a leaf: backward() leaves its .grad empty, and reading it warns."""
import warnings

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cloned = x.clone()
print("cloned.is_leaf:", cloned.is_leaf)

(cloned**2).sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    grad = cloned.grad
print("cloned.grad:", grad)
print("warning:", caught[0].category.__name__)
print("message:", caught[0].message)
