"""Exercise: the autograd flags of a slice taken from a leaf that requires grad."""
import torch

a = torch.zeros(3, requires_grad=True)
b = a[:2]
print("b.requires_grad:", b.requires_grad)
print("b.is_leaf:", b.is_leaf)
print("b.grad_fn:", type(b.grad_fn).__name__)
