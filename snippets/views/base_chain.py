"""_base names the tensor at the root of a chain of views, not the one a view was taken from; it is None for a tensor autograd does not track as a view, detach() included, and a slice made in inference mode, which shares the storage all the same."""
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
with torch.inference_mode():
    frozen = torch.arange(6.0)
    tail = frozen[2:]  # a slice, made in inference mode
print("inference-mode slice._base:", tail._base)
print("inference-mode slice._is_view():", tail._is_view())
print(
    "inference-mode slice shares the storage:",
    tail.untyped_storage().data_ptr() == frozen.untyped_storage().data_ptr(),
)
