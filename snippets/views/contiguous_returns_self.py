"""contiguous() returns the tensor itself when it is already contiguous, even a view, and a new copy only when it is not."""
import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
row = x[1]  # a view, and contiguous
t = x.t()  # a view, not contiguous

print("x.contiguous() is x:", x.contiguous() is x)
print("row.contiguous() is row:", row.contiguous() is row)
print("row.contiguous()._base is x:", row.contiguous()._base is x)
copy = t.contiguous()
print("t.contiguous() is t:", copy is t)
print("t.contiguous() shares x's storage:",
      copy.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("t.contiguous().stride():", copy.stride())
copy[0, 0] = 100.0
print("x[0, 0] after writing into t.contiguous():", x[0, 0].item())
