"""An optimizer built before copy.deepcopy(model) holds the original's parameters, not the copy's: training the copy with it changes nothing."""
import copy

import torch

rng = torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
copied = copy.deepcopy(model)  # say, to fine-tune a variant
copied_before = copied.weight.detach().clone()
model_before = model.weight.detach().clone()

copied(torch.ones(1, 2)).sum().backward()
optimizer.step()
print("optimizer holds copied.weight:", any(p is copied.weight for p in optimizer.param_groups[0]["params"]))
print("copied.weight.grad:", copied.weight.grad)
print("model.weight.grad:", model.weight.grad)
print("copied.weight changed by the step:", not torch.equal(copied.weight, copied_before))
print("model.weight changed by the step:", not torch.equal(model.weight, model_before))

optimizer = torch.optim.SGD(copied.parameters(), lr=0.1)  # built on the copy's parameters
optimizer.step()
print("optimizer built on the copy, copied.weight changed:", not torch.equal(copied.weight, copied_before))
