"""Equal untyped_storage().data_ptr() finds tensors PyTorch derived from one another; two tensors made separately over one NumPy array have storages that overlap without being equal."""
import numpy as np
import torch

array = np.zeros(6, dtype=np.float32)
first = torch.from_numpy(array[:4])  # elements 0 to 3
second = torch.from_numpy(array[2:])  # elements 2 to 5: overlaps first


def byte_range(t):
    start = t.untyped_storage().data_ptr()
    return start, start + t.untyped_storage().nbytes()


print("untyped_storage().data_ptr() equal:",
      first.untyped_storage().data_ptr() == second.untyped_storage().data_ptr())
(start_1, end_1), (start_2, end_2) = byte_range(first), byte_range(second)
print("storages' bytes overlap:", start_1 < end_2 and start_2 < end_1)
second[0] = 5.0
print("first[2] after second[0] = 5.0:", first[2].item())
