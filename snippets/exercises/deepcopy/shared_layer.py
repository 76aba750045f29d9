"""Exercise: a module used twice in a Sequential, deep-copied."""
import copy

import torch

generator = torch.manual_seed(0)
layer = torch.nn.Linear(2, 2)
model = torch.nn.Sequential(layer, layer)
twin = copy.deepcopy(model)
print("twin[0] is twin[1]:", twin[0] is twin[1])
print("twin[0] is layer:", twin[0] is layer)
print("parameters in twin:", len(list(twin.parameters())))
