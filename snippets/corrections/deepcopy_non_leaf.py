"""copy.deepcopy() does not copy autograd history: on a tensor that has some, it raises."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2  # y has history, so it is not a leaf
print("y.grad_fn:", y.grad_fn.name())
y_copy = copy.deepcopy(y)  # raises RuntimeError
