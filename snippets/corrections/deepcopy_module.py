"""copy.deepcopy() copies a whole module: new parameters, and a tied parameter stays tied."""
import copy

import torch

model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
model[1].weight = model[0].weight  # tie the two layers' weights
target = copy.deepcopy(model)

shared = target[0].weight.data_ptr() == model[0].weight.data_ptr()
print("copy shares memory with the model:", shared)
print("copy's layers still tied:", target[1].weight is target[0].weight)
print("copy's weight is a leaf:", target[0].weight.is_leaf)
print("copy's weight requires grad:", target[0].weight.requires_grad)
