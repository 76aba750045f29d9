"""Exercise: multiplying by zero a detached tensor, then looking at the tensor it came from."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = x.detach()
d *= 0
print("x:", x)
print("x._version:", x._version)
