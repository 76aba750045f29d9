"""Which results share x's memory: detach() and slices do, the copies do not."""
import copy

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
results = {
    "x": x,
    "x.detach()": x.detach(),
    "x[1:]": x[1:],
    "x.clone()": x.clone(),
    "x.detach().clone()": x.detach().clone(),
    "copy.deepcopy(x)": copy.deepcopy(x),
}
numbers = {}  # storage address -> a small number, in order of first appearance
for name, tensor in results.items():
    storage = tensor.untyped_storage()
    number = numbers.setdefault(storage.data_ptr(), len(numbers) + 1)
    print(f"{name} -> storage {number} ({storage.nbytes()} bytes)")
