"""x.grad accumulates in place: a name bound to it after one backward() also shows the next."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
x.pow(2).sin().sum().backward()
first_grad = x.grad  # a second name for the same tensor, not a snapshot
first_snapshot = x.grad.clone()  # a copy of the values

x.pow(2).sin().sum().backward()
print("first_snapshot:", first_snapshot)
print("first_grad:", first_grad)
print("x.grad:", x.grad)
print("first_grad is x.grad:", first_grad is x.grad)
