"""Exercise: writing into x.detach().clone(), then looking at x."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = x.detach().clone()
c[0] = 100.0
print("x:", x)
print("c:", c)
print("c.requires_grad:", c.requires_grad)
