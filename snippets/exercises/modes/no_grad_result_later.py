"""Exercise: a tensor computed under torch.no_grad(), used again after the block."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
z = y * x
z.sum().backward()
print("y.requires_grad:", y.requires_grad)
print("z.requires_grad:", z.requires_grad)
print("x.grad:", x.grad)
