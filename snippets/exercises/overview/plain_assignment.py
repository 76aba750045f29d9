"""Exercise: what an in-place edit through a second name does to the first."""
import torch

x = torch.tensor([1.0, 2.0, 3.0])
t = x
t += 1
print("x:", x)
print("t is x:", t is x)
