"""Exercise: what a write into a slice does to the tensor it was taken from."""
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0])
s = x[1:3]
s *= 10
print("x:", x)
print("s is x:", s is x)
