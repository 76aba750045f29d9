"""state_dict() shares memory with the parameters: clone or deepcopy it to keep a snapshot."""
import copy

import torch

model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight[:] = 1.0

shared = model.state_dict()  # tensors over the parameters' own memory
snapshot = {name: value.clone() for name, value in model.state_dict().items()}
deep = copy.deepcopy(model.state_dict())  # also a snapshot

with torch.no_grad():
    model.weight[:] = 2.0  # training goes on
print("state_dict weight, kept as is:", shared["weight"])
print("state_dict weight, cloned:", snapshot["weight"])
print("state_dict weight, deep-copied:", deep["weight"])
