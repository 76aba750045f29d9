"""copy.deepcopy refuses a tensor that has autograd history (a non-leaf)."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
print("y.is_leaf:", y.is_leaf)

values_only = copy.deepcopy(y.detach())  # the values alone copy fine
print("values_only.is_leaf:", values_only.is_leaf)
copy.deepcopy(y)  # raises RuntimeError
