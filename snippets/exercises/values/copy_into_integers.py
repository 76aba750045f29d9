"""Exercise: copy_() from a float tensor into an int64 tensor."""
import torch

dst = torch.zeros(3, dtype=torch.int64)
dst = dst.copy_(torch.tensor([1.7, -1.7, 2.5]))
print("dst:", dst)
print("dst.dtype:", dst.dtype)
