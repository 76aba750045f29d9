"""A view of a tensor in the graph, made under no_grad(), may not be edited in place once grad mode is back on; made and edited both inside no_grad(), or both outside, it may."""
import torch


def fresh():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return x, x * 1  # y: a non-leaf in x's graph


x, y = fresh()
with torch.no_grad():
    head = y[:2]
    head *= 2  # view and edit inside: allowed, not recorded
print("both inside no_grad(): y:", y.detach())
print("both inside no_grad(): y.grad_fn:", type(y.grad_fn).__name__)

x, y = fresh()
head = y[:2]
head *= 2  # view and edit outside: recorded
print("both outside: y.grad_fn:", type(y.grad_fn).__name__)
y.sum().backward()
print("both outside: x.grad:", x.grad)

x, y = fresh()
with torch.no_grad():
    head = y[:2]  # the view made under no_grad()
print("view made under no_grad(): head._is_view():", head._is_view())
print("view made under no_grad(): head.requires_grad:", head.requires_grad)
head *= 2  # raises RuntimeError
