"""Exercise: two hooks registered on the same leaf tensor, each returning a new gradient."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
add_one = x.register_hook(lambda grad: grad + 1)
double = x.register_hook(lambda grad: grad * 2)
(x * 3).sum().backward()
print("x.grad:", x.grad)
