"""Exercise: a function decorated with @torch.no_grad(), called on a tensor that requires grad."""
import torch


@torch.no_grad()
def double(t):
    return t * 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = double(x)
print("y.requires_grad:", y.requires_grad)
print("y.grad_fn:", y.grad_fn)
print("x.requires_grad:", x.requires_grad)
