"""Gradients do not flow through detach(): only the attached path reaches x.grad."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
attached = x * 2
detached = x.detach() * 3  # to autograd, a constant

loss = (attached + detached).sum()
loss.backward()
print("x.grad:", x.grad)
