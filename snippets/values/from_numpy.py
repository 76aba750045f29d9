"""torch.from_numpy(a) and torch.as_tensor(a) share a NumPy array's memory; torch.tensor(a) and a dtype change copy."""
# device-dependent: torch.as_tensor(a) and torch.tensor(a) build the tensor on the default device
import numpy as np
import torch

WAYS = {
    "torch.from_numpy(a)": lambda a: torch.from_numpy(a),
    "torch.as_tensor(a)": lambda a: torch.as_tensor(a),
    "torch.tensor(a)": lambda a: torch.tensor(a),
    "torch.as_tensor(a, dtype=torch.float32)": lambda a: torch.as_tensor(a, dtype=torch.float32),
}

print("a = np.array([1.0, 2.0, 3.0]), float64; then a[0] = 10.0:")
print("| way | shares a's memory | dtype | t[0] after a[0] = 10.0 |")
print("|---|---|---|---|")
for name, make in WAYS.items():
    a = np.array([1.0, 2.0, 3.0])
    t = make(a)
    shares = "yes" if t.untyped_storage().data_ptr() == a.ctypes.data else "no"
    a[0] = 10.0
    print(f"| {name} | {shares} | {t.dtype} | {t[0].item()} |")
