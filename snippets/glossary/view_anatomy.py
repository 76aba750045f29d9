"""A view reads its base's storage through metadata of its own, and shares its version counter."""
import torch

base = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
view = base.t()  # a transpose: no value is copied
row = view[0]  # a view of a view

print("view._base is base:", view._base is base)
print("row._base is base:", row._base is base)
print("same storage:", view.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())
print("base.stride():", base.stride())
print("view.stride():", view.stride())
print("base.is_contiguous():", base.is_contiguous())
print("view.is_contiguous():", view.is_contiguous())

view[0, 1] = 100.0  # an in-place write through the view
print("base after the write:", base.tolist())
print("base._version:", base._version)
print("view._version:", view._version)
