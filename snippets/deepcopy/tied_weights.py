"""A model whose two layers share one weight keeps them shared in its deep copy, over new memory."""
import copy

import torch

model = torch.nn.Sequential(torch.nn.Linear(3, 3, bias=False), torch.nn.Linear(3, 3, bias=False))
model[1].weight = model[0].weight  # tied weights: both layers use one Parameter
duplicate = copy.deepcopy(model)

print("model's layers share one weight:", model[1].weight is model[0].weight)
print("copy's layers share one weight:", duplicate[1].weight is duplicate[0].weight)
print("copy shares memory with the model:",
      duplicate[0].weight.data_ptr() == model[0].weight.data_ptr())
print("parameters in the copy:", len(list(duplicate.parameters())))
