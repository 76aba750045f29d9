"""copy.deepcopy of a leaf is a new leaf over new memory, with no link back to the source."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
duplicate = copy.deepcopy(x)

print("same storage:", duplicate.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("duplicate.requires_grad:", duplicate.requires_grad)
print("duplicate.is_leaf:", duplicate.is_leaf)
print("duplicate.grad_fn:", duplicate.grad_fn)

loss = (duplicate * 3).sum()
loss.backward()
print("duplicate.grad:", duplicate.grad)
print("x.grad:", x.grad)
