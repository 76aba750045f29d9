"""data_ptr() tells where a tensor's first element is, not which memory it uses: compare untyped_storage().data_ptr() to detect sharing."""
import torch

x = torch.tensor([0.0, 1.0, 2.0, 3.0])
tail = x[2:]  # a view that starts two elements into x's storage
copy = x[2:].clone()


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


print("tail.data_ptr() - x.data_ptr():", tail.data_ptr() - x.data_ptr())
print("tail.storage_offset():", tail.storage_offset())
print("tail shares x's storage:", same_storage(tail, x))
print("tail._base is x:", tail._base is x)
print("tail._is_view():", tail._is_view())
print("copy shares x's storage:", same_storage(copy, x))
print("copy._base:", copy._base)
print("x.untyped_storage().nbytes():", x.untyped_storage().nbytes())
print("tail.untyped_storage().nbytes():", tail.untyped_storage().nbytes())
print("copy.untyped_storage().nbytes():", copy.untyped_storage().nbytes())
