"""item() and tolist() copy values out as Python numbers; numpy(force=True) skips the requires-grad check, shares memory on the CPU, and copies a tensor whose conjugate bit is set."""
import numpy as np
import torch

x = torch.tensor([0.1, 2.0, 3.0], device="cpu", requires_grad=True)  # float32

first = x[0].item()
print("x[0].item():", first)
print("type of x[0].item():", type(first).__name__)
values = x.tolist()
print("x.tolist():", values)
print("type of x.tolist()[1]:", type(values[1]).__name__)
print("torch.tensor([1, 2]).tolist():", torch.tensor([1, 2]).tolist())
print("type of torch.tensor(True).item():", type(torch.tensor(True).item()).__name__)
print("type of torch.tensor(1 + 2j).item():", type(torch.tensor(1 + 2j).item()).__name__)
print("torch.tensor(3.0).tolist():", torch.tensor(3.0).tolist())

array = x.numpy(force=True)  # x requires grad; x.numpy() would raise
print("array.dtype:", array.dtype)
print("shares x's memory:", np.shares_memory(array, x.detach().numpy()))
version = x._version
array[1] = 20.0
print("x after array[1] = 20.0:", x)
print("x._version before the write:", version)
print("x._version after the write:", x._version)

conjugated = torch.tensor([1 + 2j, 3 - 4j]).conj()  # a view with the conjugate bit set
print("conjugated.is_conj():", conjugated.is_conj())
conjugated_array = conjugated.numpy(force=True)  # conjugated.numpy() would raise
conjugated_array[0] = 100
print("conjugated after conjugated_array[0] = 100:", conjugated)

try:
    x.item()
except RuntimeError as error:
    print("x.item() ->", f"{type(error).__name__}: {error}")
