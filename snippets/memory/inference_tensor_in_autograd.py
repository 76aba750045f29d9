"""Autograd refuses to save an inference tensor for backward; where it saves nothing, the tensor is accepted."""
import torch

with torch.inference_mode():
    frozen = torch.tensor([1.0, 2.0, 3.0])

w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
(w + frozen).sum().backward()  # addition saves neither input
print("w.grad after w + frozen:", w.grad)
product = w * frozen  # raises RuntimeError
