"""reshape() of a contiguous tensor and of a transpose, and contiguous(): which results use x's memory."""
import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
results = {
    "x": x,
    "x.reshape(6)": x.reshape(6),
    "x.contiguous()": x.contiguous(),
    "x.t()": x.t(),
    "x.t().reshape(6)": x.t().reshape(6),
    "x.t().contiguous()": x.t().contiguous(),
}
numbers = {}  # storage address -> a small number, in order of first appearance
for name, tensor in results.items():
    storage = tensor.untyped_storage()
    number = numbers.setdefault(storage.data_ptr(), len(numbers) + 1)
    print(f"{name} -> storage {number} ({storage.nbytes()} bytes)")
