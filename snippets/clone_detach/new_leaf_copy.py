"""detach().clone().requires_grad_() makes an independent leaf: its gradient never reaches x."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
start = x.detach().clone().requires_grad_(True)
print("start.is_leaf:", start.is_leaf)
print("start.requires_grad:", start.requires_grad)

loss = (start * 3).sum()
loss.backward()
print("start.grad:", start.grad)
print("x.grad:", x.grad)
