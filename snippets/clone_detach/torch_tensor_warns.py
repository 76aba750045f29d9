"""torch.tensor(t) and t.new_tensor(t) warn, and name detach().clone() as the way to copy."""
import warnings

import torch

source = torch.tensor([1.0, 2.0, 3.0])  # does not even require grad
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    by_constructor = torch.tensor(source)
    by_method = source.new_tensor(source)

for name, warning in zip(["torch.tensor(source)", "source.new_tensor(source)"], caught):
    print(f"{name} warns:", warning.category.__name__)
    print(f"{name} message:", warning.message)
