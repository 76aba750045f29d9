"""Exercise: a result computed under no_grad(), used again outside it."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
z = y * x
print("y.requires_grad:", y.requires_grad)
print("y.grad_fn:", y.grad_fn)
print("z.requires_grad:", z.requires_grad)
