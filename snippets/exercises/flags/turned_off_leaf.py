"""Exercise: requires_grad_(False) on a leaf, then a computation from it."""
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
w = w.requires_grad_(False)
y = w * 2
print("w.is_leaf:", w.is_leaf)
print("y.requires_grad:", y.requires_grad)
print("y.grad_fn:", y.grad_fn)
