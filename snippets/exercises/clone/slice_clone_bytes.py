"""Exercise: how many bytes a slice's storage holds, before and after clone()."""
import torch

big = torch.zeros(1000)
view = big[:10]
small = view.clone()
print("view storage bytes:", view.untyped_storage().nbytes())
print("clone storage bytes:", small.untyped_storage().nbytes())
