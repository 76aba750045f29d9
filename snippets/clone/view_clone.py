"""A clone of a view owns storage of just the view's size and is no longer a view."""
import torch

base = torch.arange(1000.0)  # 1000 float32 values: 4000 bytes
window = base[100:110]  # a view: 10 values inside base's storage

cloned = window.clone()
print("window is a view of base:", window._base is base)
print("cloned._base:", cloned._base)
print("window storage bytes:", window.untyped_storage().nbytes())
print("cloned storage bytes:", cloned.untyped_storage().nbytes())

cloned[0] = -1.0
print("base[100] after writing to the clone:", base[100])
