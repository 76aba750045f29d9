"""Exercise: writing into x.cpu() when x is already in CPU memory."""
import torch

x = torch.tensor([1.0, 2.0], device="cpu")
y = x.cpu()
y[0] = 7.0
print("x:", x)
print("y is x:", y is x)
