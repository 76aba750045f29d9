"""torch.tensor(data) is a function that copies data and infers the dtype from it; torch.Tensor is the class, whose constructor makes float32 from a list of integers, reads a single integer as a size, and given a tensor shares its memory without a warning."""
import warnings

import torch

print("torch.Tensor is a class:", isinstance(torch.Tensor, type))
print("torch.tensor is a class:", isinstance(torch.tensor, type))
print("torch.tensor([1, 2]).dtype:", torch.tensor([1, 2]).dtype)
print("torch.Tensor([1, 2]).dtype:", torch.Tensor([1, 2]).dtype)
print("torch.tensor([1.0, 2.0]).dtype:", torch.tensor([1.0, 2.0]).dtype)
print("torch.tensor(3):", torch.tensor(3))
print("torch.Tensor(3).shape:", torch.Tensor(3).shape)  # three elements, values not set

source = torch.tensor([1.0, 2.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    by_function = torch.tensor(source)
    by_class = torch.Tensor(source)
for name, result in [("torch.tensor(source)", by_function), ("torch.Tensor(source)", by_class)]:
    shares = result.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()
    print(f"{name} shares source's memory:", shares)
print("warnings:", len(caught))
for warning in caught:
    print("warning:", f"{warning.category.__name__}: {warning.message}")
