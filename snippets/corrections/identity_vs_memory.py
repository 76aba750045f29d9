"""id() tells Python objects apart, not memory: detach() and clone() both give a new object."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
detached = x.detach()
cloned = x.clone()


def shares_memory_with_x(t):
    return t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


print("id(detached) == id(x):", id(detached) == id(x))
print("id(cloned) == id(x):", id(cloned) == id(x))
print("detached shares memory with x:", shares_memory_with_x(detached))
print("cloned shares memory with x:", shares_memory_with_x(cloned))
