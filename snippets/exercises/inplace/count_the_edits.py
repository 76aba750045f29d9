"""Exercise: the version counter after in-place edits, one of them an augmented assignment to an element."""
import torch

x = torch.zeros(3)
x += 1
x[0] += 2
y = x + 1
print("x._version:", x._version)
print("y._version:", y._version)
