"""Exercise: torch.enable_grad() nested inside torch.no_grad()."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    outer = x * 2
    with torch.enable_grad():
        inner = x * 2
print("outer.requires_grad:", outer.requires_grad)
print("inner.requires_grad:", inner.requires_grad)
