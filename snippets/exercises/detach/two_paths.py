"""Exercise: the gradient of x * x.detach(), where only one factor stays in the graph."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * x.detach()).sum()
loss.backward()
print("x.grad:", x.grad)
