"""x @= m on a name is no in-place write: torch.Tensor has no __imatmul__, so Python runs x = x @ m, which makes a new tensor and binds the name to it; the tensor the name held before keeps its values and version counter. y += 1 writes into y itself. On a subscript, z[0] @= m runs z[0] = z[0] @ m, a store into z that moves its counter. On a leaf that requires grad, with grad mode on, @= gives the name a new tensor that is not a leaf."""
import torch

print("torch.Tensor has __imatmul__:", hasattr(torch.Tensor, "__imatmul__"))

x = torch.ones(2, 2)
before = x
x @= torch.eye(2) * 2
print("after x @= m, x is the tensor it was:", x is before)
print("after x @= m, that tensor's version:", before._version)
print("after x @= m, that tensor's values:", before)

y = torch.ones(2, 2)
before = y
y += 1
print("after y += 1, y is the tensor it was:", y is before)
print("after y += 1, its version:", y._version)

z = torch.ones(2, 2)
before = z
z[0] @= torch.eye(2) * 2
print("after z[0] @= m, z is the tensor it was:", z is before)
print("after z[0] @= m, its version:", z._version)
print("after z[0] @= m, its values:", z)

w = torch.ones(2, 2, requires_grad=True)
w @= torch.eye(2)
print("leaf w after w @= m: is_leaf", w.is_leaf, "grad_fn", type(w.grad_fn).__name__)
