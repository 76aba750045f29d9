"""copy.deepcopy() of a leaf is a new leaf with its own storage and no link back to the source."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x_copy = copy.deepcopy(x)

print("same storage:", x_copy.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("x_copy.requires_grad:", x_copy.requires_grad)
print("x_copy.is_leaf:", x_copy.is_leaf)
(x_copy * 3).sum().backward()
print("x_copy.grad:", x_copy.grad)
print("x.grad:", x.grad)
