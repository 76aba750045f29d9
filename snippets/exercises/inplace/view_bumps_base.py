"""Exercise: the version counters of a tensor and of a view after an edit through the view."""
import torch

x = torch.zeros(4)
v = x[2:]
v += 1
print("x._version:", x._version)
print("v._version:", v._version)
