"""A copy between overlapping slices of one tensor: PyTorch refused a shift of a contiguous 1-D tensor, and ran a column shift and a strided shift without a word, giving values that differ from the copy read from a clone() first."""
import torch

grid = torch.arange(12.0).reshape(3, 4)
expected = grid.clone()
expected[:, 1:] = grid[:, :-1].clone()  # read first, then write
grid[:, 1:] = grid[:, :-1]  # each row shifted right by one, in place
print("grid after grid[:, 1:] = grid[:, :-1]:", grid)
print("grid equal to the result read from a clone():", torch.equal(grid, expected))
print("strides of grid[:, 1:]:", grid[:, 1:].stride())

line = torch.arange(10.0)
expected = line.clone()
expected[2::2] = line[:-2:2].clone()
line[2::2] = line[:-2:2]  # the even-indexed elements shifted right by two, in place
print("line after line[2::2] = line[:-2:2]:", line)
print("line equal to the result read from a clone():", torch.equal(line, expected))
print("stride of line[2::2]:", line[2::2].stride())

x = torch.arange(5.0)
x[1:] = x[:-1]  # raises RuntimeError
