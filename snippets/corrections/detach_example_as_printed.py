"""The article's detach() example, as printed, fails: nothing after detach() requires grad."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
squared = x.pow(2)
squared_detached = squared.detach()  # to autograd, a constant
z = squared_detached.sin()

print("squared_detached.requires_grad:", squared_detached.requires_grad)
print("z.requires_grad:", z.requires_grad)
print("z.grad_fn:", z.grad_fn)
z.backward()  # raises RuntimeError
