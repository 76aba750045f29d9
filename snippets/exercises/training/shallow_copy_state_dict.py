"""Exercise: a shallow copy of a model's state_dict, then an in-place edit of the model."""
import copy

import torch

rng = torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
saved = copy.copy(model.state_dict())
with torch.no_grad():
    model.weight[:] = 7.0
print("saved weight:", saved["weight"])
