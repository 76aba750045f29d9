"""clone() copies the values into new memory and stays in the graph: gradients reach the source."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
cloned = x.clone()

print("same storage:", cloned.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("cloned.grad_fn:", cloned.grad_fn.name())
print("cloned.requires_grad:", cloned.requires_grad)

loss = (cloned**2).sum()  # d(loss)/d(cloned) = 2 * cloned
loss.backward()
print("x.grad:", x.grad)
