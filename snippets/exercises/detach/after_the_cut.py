"""Exercise: whether a result computed from a detached tensor requires grad."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.detach() * 3
print("z.requires_grad:", z.requires_grad)
print("z.grad_fn:", z.grad_fn)
print("z.is_leaf:", z.is_leaf)
