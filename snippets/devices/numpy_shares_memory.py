"""numpy() on a CPU tensor and torch.from_numpy() on an array both share memory instead of copying."""
import numpy as np
import torch

x = torch.tensor([1.0, 2.0, 3.0], device="cpu")
array = x.numpy()  # a NumPy view of x's memory
array[0] = 100.0
print("x after writing to x.numpy():", x)

values = np.array([1.0, 2.0, 3.0])
shared = torch.from_numpy(values)  # a CPU tensor over the array's memory
copied = torch.tensor(values)  # torch.tensor() always copies
values[1] = 200.0
print("torch.from_numpy(values):", shared)
print("torch.tensor(values):", copied)
print("torch.from_numpy(values).device:", shared.device)
