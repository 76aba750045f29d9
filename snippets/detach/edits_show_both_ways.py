"""A detached tensor shares memory and the version counter with its source."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
detached = x.detach()

detached[0] = 10.0  # write through the detached tensor
print("x:", x)

with torch.no_grad():
    x[2] = 30.0  # write through the source
print("detached:", detached)

print("x._version:", x._version)
print("detached._version:", detached._version)
