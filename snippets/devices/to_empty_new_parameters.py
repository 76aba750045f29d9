"""Module.to_empty() gives a module made on the meta device new parameters: an optimizer built before it holds the old meta parameters, and its step() changed nothing, without an error; one built after it moved the weight."""
import torch

layer = torch.nn.Linear(2, 1, device="meta")  # shapes, no values
early = torch.optim.SGD(layer.parameters(), lr=0.1)  # built before to_empty()
meta_weight = layer.weight
layer = layer.to_empty(device="cpu")  # memory on the CPU, its values not set
layer.reset_parameters()  # the layer's own initial values
print("layer.weight is the Parameter it had before:", layer.weight is meta_weight)
print("layer.weight.device:", layer.weight.device)
print("the early optimizer holds layer.weight:",
      any(p is layer.weight for p in early.param_groups[0]["params"]))
print("the early optimizer's first parameter is the old weight:",
      early.param_groups[0]["params"][0] is meta_weight)
print("its device:", early.param_groups[0]["params"][0].device)

before = layer.weight.detach().clone()
layer(torch.ones(3, 2)).sum().backward()
print("layer.weight.grad:", layer.weight.grad)
early.step()
print("weight changed by the early optimizer's step():", not torch.equal(before, layer.weight.detach()))

late = torch.optim.SGD(layer.parameters(), lr=0.1)  # built after to_empty()
late.step()
print("weight changed by the late optimizer's step():", not torch.equal(before, layer.weight.detach()))
