"""Exercise: adding in place to the diagonal() of a matrix, then printing the matrix."""
import torch

x = torch.zeros(3, 3)
d = x.diagonal()
d += 5
print("x:", x.tolist())
