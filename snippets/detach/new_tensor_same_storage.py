"""detach() returns a new tensor object over the same storage, with no autograd history."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
detached = y.detach()

print("same object:", detached is y)
print("same storage:", detached.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
print("y.grad_fn:", y.grad_fn.name())
print("detached.grad_fn:", detached.grad_fn)
print("detached.requires_grad:", detached.requires_grad)
print("detached.is_leaf:", detached.is_leaf)
