"""retain_grad() asks autograd to keep the gradient of a non-leaf tensor such as a clone."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cloned = x.clone()
cloned.retain_grad()  # before backward()

(cloned**2).sum().backward()
print("cloned.grad:", cloned.grad)
print("x.grad:", x.grad)
