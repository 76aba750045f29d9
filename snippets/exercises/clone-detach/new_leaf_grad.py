"""Exercise: where the gradient lands when a detached copy is made a leaf of its own."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = x.detach().clone().requires_grad_()
(c * 5).sum().backward()
print("x.grad:", x.grad)
print("c.grad:", c.grad)
