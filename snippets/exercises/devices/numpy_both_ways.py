"""Exercise: torch.from_numpy and torch.tensor after the NumPy array changes."""
import numpy as np
import torch

a = np.zeros(2)
shared = torch.from_numpy(a)
copied = torch.tensor(a)
a[0] = 3.0
print("shared:", shared)
print("copied:", copied)
