"""A layer's parameters start at version 1 or more, because reset_parameters() initialises them in place; a Parameter made directly starts at 0."""
import torch

print("nn.Parameter(torch.zeros(3))._version:", torch.nn.Parameter(torch.zeros(3))._version)
print("nn.Linear(3, 3).weight._version:", torch.nn.Linear(3, 3).weight._version)
print("nn.RNNCell(3, 3).weight_hh._version:", torch.nn.RNNCell(3, 3).weight_hh._version)
parameter = torch.nn.Parameter(torch.zeros(3))
filled = torch.nn.init.uniform_(parameter)  # what reset_parameters() does: an in-place fill
print("after torch.nn.init.uniform_(parameter):", parameter._version)
