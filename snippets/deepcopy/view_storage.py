"""copy.deepcopy of a view copies the whole storage under it; clone() copies only the view."""
import copy

import torch

base = torch.arange(1000.0)  # 1000 float32 values: 4000 bytes
window = base[500:510]  # a view of 10 values

deep = copy.deepcopy(window)
cloned = window.clone()
print("window.numel():", window.numel())
print("deepcopy storage bytes:", deep.untyped_storage().nbytes())
print("clone storage bytes:", cloned.untyped_storage().nbytes())
print("deepcopy storage_offset:", deep.storage_offset())
