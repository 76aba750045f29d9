"""Module.to() converts the module in place and returns the module itself; Tensor.to() returns a new tensor and leaves the original as it was."""
import torch

model = torch.nn.Linear(2, 1)
weight_before = model.weight
memory_before = model.weight.untyped_storage().data_ptr()
returned = model.to(torch.float64)
print("model.to(torch.float64) is model:", returned is model)
print("model.weight.dtype after:", model.weight.dtype)
print("model.weight is the same Parameter object:", model.weight is weight_before)
print("model.weight's memory is new:", model.weight.untyped_storage().data_ptr() != memory_before)

x = torch.zeros(2)
converted = x.to(torch.float64)
print("x.to(torch.float64) is x:", converted is x)
print("x.dtype after:", x.dtype)
