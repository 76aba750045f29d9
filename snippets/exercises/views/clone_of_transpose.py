"""Exercise: the layout of a clone() of a transposed tensor."""
import torch

x = torch.arange(6.0).reshape(2, 3)
t = x.t()
c = t.clone()
print("t.stride():", t.stride())
print("c.stride():", c.stride())
print("c.is_contiguous():", c.is_contiguous())
