"""reshape() returns a view when the strides allow one and a copy otherwise, so a write through its result may or may not reach the source."""
import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])

flat = x.reshape(6)  # x is contiguous: a view
flat[0] = 100.0
print("x.is_contiguous():", x.is_contiguous())
print("x[0, 0] after flat[0] = 100.0:", x[0, 0].item())

t = x.t()  # a view with strides (1, 3): not contiguous
flat_t = t.reshape(6)  # no strides can read t in order: a copy
flat_t[0] = -1.0
print("t.is_contiguous():", t.is_contiguous())
print("x[0, 0] after flat_t[0] = -1.0:", x[0, 0].item())
print("flat_t shares x's storage:", flat_t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("flat_t._base:", flat_t._base)
