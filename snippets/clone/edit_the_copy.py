"""Writing into a clone leaves the source alone; the overwritten element sends no gradient back."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cloned = x.clone()
cloned[0] = 10.0  # allowed: a clone is not a leaf

print("x:", x)
print("cloned:", cloned)
print("cloned.grad_fn:", cloned.grad_fn.name())

loss = (cloned**2).sum()
loss.backward()
print("x.grad:", x.grad)
