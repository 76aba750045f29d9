"""clone() copies the values but stays in the graph: gradients flow back through it."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cloned = x.clone()

print("same storage:", cloned.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("cloned.grad_fn:", cloned.grad_fn.name())
print("cloned.is_leaf:", cloned.is_leaf)
(cloned * 3).sum().backward()
print("x.grad:", x.grad)
