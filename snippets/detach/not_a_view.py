"""detach() shares storage and version counter with its source, yet PyTorch does not treat it as a view: no _base."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
detached = x.detach()
sliced = x[1:]  # a view, for comparison

print("aten::detach schema:", torch.ops.aten.detach.default._schema)  # (a): aliases its input
print("detached._is_view():", detached._is_view())
print("detached._base:", detached._base)
print("sliced._is_view():", sliced._is_view())
print("sliced._base is x:", sliced._base is x)
print("same storage:", detached.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

detached[0] = 10.0  # one in-place write, through the detached tensor
print("x after the write:", x)
print("x._version:", x._version)
print("detached._version:", detached._version)
