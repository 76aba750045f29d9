"""copy.deepcopy(module) keeps its forward hooks (the same function) but not the tensor hooks on its parameters."""
import copy

import torch

model = torch.nn.Linear(2, 1)
ran = []


def forward_hook(module, inputs, output):
    ran.append("forward hook on " + ("model" if module is model else "the copy"))


def weight_hook(grad):
    ran.append("weight hook")


forward_handle = model.register_forward_hook(forward_hook)
weight_handle = model.weight.register_hook(weight_hook)
copied = copy.deepcopy(model)
print("the copy's forward hook is forward_hook:", list(copied._forward_hooks.values())[0] is forward_hook)

copied(torch.ones(1, 2)).sum().backward()
print("hooks run for the copy:", ran)
ran.clear()
model(torch.ones(1, 2)).sum().backward()
print("hooks run for the model:", ran)

forward_handle.remove()
ran.clear()
output = copied(torch.ones(1, 2))
print("after forward_handle.remove(), hooks run for the copy:", ran)
print("forward hooks left on model:", len(model._forward_hooks))
print("forward hooks left on the copy:", len(copied._forward_hooks))
