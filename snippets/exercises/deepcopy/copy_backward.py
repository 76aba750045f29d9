"""Exercise: where the gradient lands after backward() through a deep copy of a leaf."""
import copy

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = copy.deepcopy(x)
(c * 3).sum().backward()
print("x.grad:", x.grad)
print("c.grad:", c.grad)
print("c.requires_grad:", c.requires_grad)
