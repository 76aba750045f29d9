"""A hook registered on a tensor sees the gradient passing through it and may replace it."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
seen = []


def scale_by_ten(grad):
    seen.append(grad.clone())
    return grad * 10  # the returned tensor replaces the gradient


handle = y.register_hook(scale_by_ten)
y.sum().backward(retain_graph=True)
print("gradient the hook saw:", seen[0])
print("x.grad:", x.grad)

handle.remove()
x.grad = None
y.sum().backward()
print("hook calls after handle.remove() and a second backward:", len(seen))
print("x.grad without the hook:", x.grad)
