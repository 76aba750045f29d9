"""view() never copies: on a tensor whose strides do not allow the new shape it raises instead."""
import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
t = x.t()
print("t.stride():", t.stride())
print("t.contiguous().view(6):", t.contiguous().view(6))
flat = t.view(6)  # raises RuntimeError
