"""copy.deepcopy of a tensor also copies its .grad, into memory of its own."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x**2).sum().backward()
duplicate = copy.deepcopy(x)

print("x.grad:", x.grad)
print("duplicate.grad:", duplicate.grad)
print("grads share storage:",
      duplicate.grad.untyped_storage().data_ptr() == x.grad.untyped_storage().data_ptr())
