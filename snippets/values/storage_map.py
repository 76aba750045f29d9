"""After each way of copying values, which tensors and arrays use which memory."""
import warnings

import numpy as np
import torch

src = torch.tensor([1.0, 2.0, 3.0], device="cpu")
dst = torch.zeros(3, device="cpu")
dst = dst.copy_(src)  # copy_ writes into dst and returns dst itself
with warnings.catch_warnings(record=True) as caught:  # torch.tensor(src) warns
    warnings.simplefilter("always")
    constructed = torch.tensor(src)
for warning in caught:
    print("torch.tensor(src) warns:", f"{warning.category.__name__}: {warning.message}")
a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
results = {  # every result stays alive, so no address is reused while we compare
    "src": src,
    "src.clone()": src.clone(),
    "dst, after dst.copy_(src)": dst,
    "torch.tensor(src)": constructed,
    "torch.as_tensor(src)": torch.as_tensor(src),
    "a, a NumPy array": a,
    "torch.from_numpy(a)": torch.from_numpy(a),
    "torch.tensor(a)": torch.tensor(a, device="cpu"),
}
numbers = {}  # memory address -> a small number, in order of first appearance
for name, value in results.items():
    address = value.ctypes.data if isinstance(value, np.ndarray) else value.untyped_storage().data_ptr()
    print(f"{name} -> storage {numbers.setdefault(address, len(numbers) + 1)}")
