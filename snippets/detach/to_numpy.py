"""numpy() refuses a tensor that requires grad; after detach() the array shares its memory."""
import torch

w = torch.tensor([1.0, 2.0], device="cpu", requires_grad=True)  # NumPy reads CPU memory only
array = w.detach().numpy()
array[0] = 100.0
print("w after writing to the array:", w)
print("w._version after writing to the array:", w._version)

w.numpy()  # raises RuntimeError
