"""On the CPU, x.cpu().numpy() is x's own memory; a CUDA tensor is expected to refuse numpy() and to reach NumPy only as a copy made by cpu()."""
# device-dependent: on a GPU, numpy() refuses the tensor and cpu() makes a copy; on the CPU neither happens
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.tensor([1.0, 2.0, 3.0], device=device)

try:
    print("x.numpy() returns:", type(x.numpy()).__name__)
except TypeError as error:  # what numpy() raises for a tensor outside CPU memory
    print("x.numpy() returns:", "nothing, it raised TypeError:", error)

array = x.cpu().numpy()
array[0] = 100.0
print("x after writing to x.cpu().numpy():", x)
