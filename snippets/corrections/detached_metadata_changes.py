"""resize_(), resize_as_(), transpose_() and set_() on a detached tensor succeed; none of them here
grows the storage x uses, and each changes only the detached tensor's shape."""
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
resized = x.detach().resize_(3, 2)
resized_as = x.detach().resize_as_(torch.zeros(3, 2))
transposed = x.detach().transpose_(0, 1)
replaced = x.detach().set_(torch.zeros(4))

print("resized.shape:", list(resized.shape))
print("resized_as.shape:", list(resized_as.shape))
print("transposed.shape:", list(transposed.shape))
print("replaced.shape:", list(replaced.shape))
print("x.shape:", list(x.shape))
print("x:", x)
print("detach() docstring mentions resize_:", "resize_" in torch.Tensor.detach.__doc__)
