"""detach_() cuts the tensor itself out of the graph and returns it; detach() leaves it alone and returns a new tensor; a view taken before detach_() stays in the graph until the tensor is edited in place."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

y = x * 2
detached = y.detach()
print("y.detach() is y:", detached is y)
print("y.grad_fn after y.detach():", type(y.grad_fn).__name__)

z = x * 2
tail = z[1:]  # a view of z, taken before detach_()
result = z.detach_()
print("z.detach_() is z:", result is z)
print("z.grad_fn after z.detach_():", z.grad_fn)
print("z.requires_grad:", z.requires_grad)
print("z.is_leaf:", z.is_leaf)
print("tail.grad_fn (view taken before):", type(tail.grad_fn).__name__)
print("tail.requires_grad (view taken before):", tail.requires_grad)

# An in-place edit of z after detach_() rebuilds tail's node from z, which has no history:
# tail leaves the graph as well, and its gradient no longer reaches x
z = z.add_(1)  # add_ returns z itself
print("tail.grad_fn after z.add_(1):", type(tail.grad_fn).__name__)
tail.sum().backward()
print("x.grad after tail.sum().backward():", x.grad)
