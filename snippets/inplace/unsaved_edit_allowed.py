"""Autograd objects only to edits of tensors it saved: x * 2 saves nothing of x, so editing x is allowed."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * 2).sum()  # the gradient is 2 whatever x holds: x is not saved

detached = x.detach()
detached[0] = 10.0
print("x._version:", x._version)
loss.backward()
print("x.grad:", x.grad)
