"""clone() keeps the strides of a dense tensor; a tensor with gaps comes back packed, in the order of its strides."""
import torch

grid = torch.arange(24.0).reshape(2, 3, 4)
permuted = grid.permute(2, 0, 1)  # dense, just not in row-major order
print("permuted strides:", permuted.stride())
print("permuted.clone() strides:", permuted.clone().stride())
forced = permuted.clone(memory_format=torch.contiguous_format)
print("contiguous_format clone strides:", forced.stride())

stepped = torch.arange(12.0).reshape(3, 4)[:, ::2]  # every other column: gaps in memory
print("stepped strides:", stepped.stride())
print("stepped.clone() strides:", stepped.clone().stride())

expanded = torch.tensor([1.0, 2.0]).expand(3, 2)  # stride 0: one row seen three times
print("expanded strides:", expanded.stride())
print("expanded.clone() strides:", expanded.clone().stride())

transposed_stepped = torch.arange(32.0).reshape(4, 8).t()[:, ::2]  # gaps, column-major order
print("transposed_stepped strides:", transposed_stepped.stride())
print("transposed_stepped.clone() strides:", transposed_stepped.clone().stride())
print("transposed_stepped.clone() is contiguous:", transposed_stepped.clone().is_contiguous())
