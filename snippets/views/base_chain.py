"""_base names the tensor at the root of a chain of views, not the one a view was taken from; it is None for a tensor autograd does not track as a view, detach() included, and a slice of an inference tensor, which shares the storage all the same (a slice of an ordinary tensor taken in inference mode is a view with its _base)."""
import torch

x = torch.arange(6.0)
first = x[1:]
second = first[1:]  # a view of a view
print("second._base is first:", second._base is first)
print("second._base is x:", second._base is x)
print("x.view(2, 3).t()._base is x:", x.view(2, 3).t()._base is x)
detached = x.detach()
print("x.detach()._base:", detached._base)
print("x.detach()._is_view():", detached._is_view())
print("x.detach()[1:]._base is x:", detached[1:]._base is x)
print("x.detach()[1:]._base is the detached tensor:", detached[1:]._base is detached)
print("x.clone()._base:", x.clone()._base)
ordinary = torch.arange(6.0)
with torch.inference_mode():
    frozen = torch.arange(6.0)  # an inference tensor
    tail = frozen[2:]
    part = ordinary[2:]  # a slice of an ordinary tensor, taken in inference mode
print("inference tensor's slice._base:", tail._base)
print("inference tensor's slice._is_view():", tail._is_view())
print(
    "inference tensor's slice shares the storage:",
    tail.untyped_storage().data_ptr() == frozen.untyped_storage().data_ptr(),
)
print("ordinary tensor's slice in inference mode, ._base is ordinary:", part._base is ordinary)
