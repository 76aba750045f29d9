"""resize_() and set_() on a detached tensor raise no error: they change the detached tensor's metadata, not x's."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def shares_memory_with_x(tensor):
    return tensor.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


resized = x.detach().resize_(2)  # in place: returns the detached tensor itself
print("resized.shape:", tuple(resized.shape))
print("x.shape after resize_:", tuple(x.shape))
print("resized shares x's memory:", shares_memory_with_x(resized))

repointed = x.detach().set_(torch.zeros(4))  # now reads other memory
print("x after set_:", x)
print("repointed shares x's memory:", shares_memory_with_x(repointed))
print("x._version:", x._version)
