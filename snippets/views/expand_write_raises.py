"""An in-place write into an expand()ed tensor raises: several of its elements are one memory location."""
import torch

row = torch.zeros(3)
grid = row.expand(2, 3)  # stride 0 along the first dimension: both rows are row's memory
print("grid.stride():", grid.stride())
grid.add_(1)  # raises RuntimeError
