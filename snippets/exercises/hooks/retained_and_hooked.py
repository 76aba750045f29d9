"""Exercise: a non-leaf tensor that both retains its gradient and has a hook that scales it."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
handle = y.register_hook(lambda grad: grad * 10)
y.sum().backward()
print("y.grad:", y.grad)
print("x.grad:", x.grad)
