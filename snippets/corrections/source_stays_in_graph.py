"""detach() returns a new tensor and leaves its source in the graph: backward() still works."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
squared = x.pow(2)
squared_detached = squared.detach()

print("squared.grad_fn after detach():", squared.grad_fn.name())
print("squared_detached.grad_fn:", squared_detached.grad_fn)
squared.sum().backward()
print("x.grad:", x.grad)
