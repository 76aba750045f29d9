"""Exercise: backward() after an in-place edit of a sigmoid's output."""
import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.sigmoid()
y *= 2
y.sum().backward()  # raises RuntimeError
