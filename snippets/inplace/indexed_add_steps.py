"""a[0] += 2 is three steps in Python; the in-place add and the write-back each move the counter."""
import torch

a = torch.zeros(4)
element = a[0]  # step 1, a.__getitem__(0): a view of a, nothing is written
print("after reading a[0]:", a._version)
element += 2  # step 2, element.__iadd__(2): an in-place add through the view
print("after the in-place add:", a._version)
a[0] = element  # step 3, a.__setitem__(0, element): the write-back, a copy_ into a
print("after the write-back:", a._version)
print("a:", a)
