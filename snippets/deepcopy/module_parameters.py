"""Deep-copying a module gives it new parameters over new memory, but not their gradients."""
import copy

import torch

model = torch.nn.Linear(2, 1)
model(torch.ones(1, 2)).sum().backward()
duplicate = copy.deepcopy(model)

print("same weight object:", duplicate.weight is model.weight)
print("same weight storage:", duplicate.weight.data_ptr() == model.weight.data_ptr())
print("weights equal:", torch.equal(duplicate.weight, model.weight))
print("duplicate.weight is a Parameter:", isinstance(duplicate.weight, torch.nn.Parameter))
print("model.weight.grad:", model.weight.grad)
print("duplicate.weight.grad:", duplicate.weight.grad)
