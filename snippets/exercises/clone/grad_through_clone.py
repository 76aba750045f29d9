"""Exercise: the gradient that reaches x through a clone that was scaled in place."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.clone()
y *= 3
y.sum().backward()
print("x:", x)
print("x.grad:", x.grad)
