"""A leaf whose .grad has a history (after backward(create_graph=True)) is refused by copy.deepcopy, which copies the .grad too; a Parameter in the same state is copied, without its .grad."""
import copy
import warnings

import torch
from torch import nn

x = torch.tensor([1.0, 2.0], requires_grad=True)
p = nn.Parameter(torch.tensor([1.0, 2.0]))  # a Parameter in the same state, for the end
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (x * x).sum().backward(create_graph=True)  # the gradient 2 * x is itself recorded
    (p * p).sum().backward(create_graph=True)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
print("x.is_leaf:", x.is_leaf)
print("x.grad.grad_fn:", x.grad.grad_fn.name())
try:
    copy.deepcopy(x)
except RuntimeError as error:
    print("copy.deepcopy(x) raised:", error)
x.grad = x.grad.detach()  # keep the gradient's values, drop its history
print("after x.grad = x.grad.detach(), the copy's .grad:", copy.deepcopy(x).grad)

# The Parameter: Parameter.__deepcopy__ copies the values and requires_grad only
print("p.grad.grad_fn:", p.grad.grad_fn.name())
print("copy.deepcopy(p).grad:", copy.deepcopy(p).grad)
