"""x.detach().requires_grad_() is a new leaf over x's memory: it shares x's values and version counter, but not its graph or .grad."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
leaf = x.detach().requires_grad_()

print("leaf.is_leaf:", leaf.is_leaf)
print("leaf.requires_grad:", leaf.requires_grad)
print("shares x's storage:", leaf.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

(leaf * 3).sum().backward()
print("leaf.grad:", leaf.grad)
print("x.grad:", x.grad)

try:
    result = leaf.mul_(10)
except RuntimeError as error:
    print("leaf.mul_(10) ->", f"{type(error).__name__}: {error}")

with torch.no_grad():
    x *= 10  # an in-place edit of x (mul_)
print("leaf after x *= 10:", leaf)
print("x._version:", x._version)
print("leaf._version:", leaf._version)
