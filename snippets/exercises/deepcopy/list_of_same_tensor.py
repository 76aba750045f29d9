"""Exercise: deep-copying a list that holds the same tensor twice."""
import copy

import torch

t = torch.tensor([1.0, 2.0])
pair = copy.deepcopy([t, t])
pair[0][0] = 50.0
print("pair[0] is pair[1]:", pair[0] is pair[1])
print("pair[1]:", pair[1])
print("t:", t)
