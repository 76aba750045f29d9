"""On a transpose, whose strides do not allow a flat shape, view() raises where reshape() would copy."""
import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
t = x.t()
print("t.stride():", t.stride())
print("t.contiguous().view(6):", t.contiguous().view(6))
flat = t.view(6)  # raises RuntimeError
