"""Tensors have detach() but no detch(): the misspelt call raises AttributeError."""
import torch

a = torch.tensor([1.0, 1.0], requires_grad=True)
print("has detach:", hasattr(a, "detach"))
print("has detch:", hasattr(a, "detch"))
a_detached = a.detch()  # raises AttributeError
