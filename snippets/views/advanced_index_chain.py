"""x[[0, 1]][0] = 5 writes into a copy and leaves x as it was; x[[0, 1]] = 5 writes into x."""
import torch

x = torch.zeros(3)
x[[0, 1]][0] = 5.0  # x[[0, 1]] is a new tensor; the assignment writes into it
print("x after x[[0, 1]][0] = 5.0:", x)
x[[0, 1]] = 5.0  # an indexed assignment: writes into x
print("x after x[[0, 1]] = 5.0:", x)
y = torch.zeros(3)
y[0:2][0] = 5.0  # a slice is a view, so a write through it reaches y
print("y after y[0:2][0] = 5.0:", y)
