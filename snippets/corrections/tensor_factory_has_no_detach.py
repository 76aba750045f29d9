"""torch.tensor is a function that makes tensors, not the tensor class: the method is torch.Tensor.detach."""
import torch

print("type(torch.tensor):", type(torch.tensor).__name__)
print("hasattr(torch.tensor, 'detach'):", hasattr(torch.tensor, "detach"))
print("hasattr(torch.Tensor, 'detach'):", hasattr(torch.Tensor, "detach"))
print("torch.Tensor.detach is what x.detach() calls:",
      type(torch.zeros(1)).detach is torch.Tensor.detach)
