"""In a_ @ b, b.grad is the values of a_; whether a gradient reaches a plays no part in it."""
import torch

a = torch.tensor([1.0, 1.0], requires_grad=True)
b = torch.tensor([2.0, 2.0], requires_grad=True)
a_ = a.clone()
a_[0] += 2
(a_ @ b).backward()
print("through clone(): a_:", a_.detach())
print("through clone(): b.grad:", b.grad)
print("through clone(): a.grad:", a.grad)

a = torch.tensor([1.0, 1.0], requires_grad=True)
b = torch.tensor([2.0, 2.0], requires_grad=True)
a_ = a.detach().clone()  # no path back to a
a_[0] += 2
(a_ @ b).backward()
print("no path back: b.grad:", b.grad)
print("no path back: a.grad:", a.grad)
print("b.grad equals a_:", torch.equal(b.grad, a_))
