"""Editing, through detach(), a value that autograd saved makes backward() fail."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()  # exp() saves its output y: the gradient of exp(x) is exp(x)

y_detached = y.detach()
y_detached[0] = 0.0  # changes y behind autograd's back, and bumps the shared version
y.sum().backward()  # raises RuntimeError
