"""With torch.__future__.set_swap_module_params_on_conversion(True), Module.to_empty() kept a meta module's weight Parameter, swapping the new tensor into it: the SGD optimizer built before it moved the weight."""
import torch

torch.__future__.set_swap_module_params_on_conversion(True)  # swap the memory, keep the objects
layer = torch.nn.Linear(2, 1, device="meta")
early = torch.optim.SGD(layer.parameters(), lr=0.1)  # built before to_empty()
meta_weight = layer.weight
layer = layer.to_empty(device="cpu")
layer.reset_parameters()
print("layer.weight is the Parameter it had before:", layer.weight is meta_weight)
print("layer.weight.device:", layer.weight.device)

before = layer.weight.detach().clone()
layer(torch.ones(3, 2)).sum().backward()
early.step()
print("weight changed by the early optimizer's step():", not torch.equal(before, layer.weight.detach()))
torch.__future__.set_swap_module_params_on_conversion(False)  # the default again, for what runs next
