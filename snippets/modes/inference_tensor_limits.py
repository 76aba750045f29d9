"""An inference tensor has no version counter, and outside inference mode it cannot be made to require grad or be edited in place."""
import torch

with torch.inference_mode():
    y = torch.tensor([1.0, 2.0, 3.0]) * 2

print("y.is_inference():", y.is_inference())
for label, action in [
    ("y._version", lambda: y._version),
    ("y.requires_grad_()", lambda: y.requires_grad_()),
    ("y.add_(1)", lambda: y.add_(1)),
]:
    try:
        action()
        print(label, "-> ok")
    except RuntimeError as error:
        print(label, "->", f"{type(error).__name__}: {error}")

print("y.detach().is_inference():", y.detach().is_inference())
ordinary = y.clone()  # a clone made outside inference mode is an ordinary tensor
print("y.clone().is_inference():", ordinary.is_inference())
print("y.clone()._version:", ordinary._version)
print("clone of an ordinary tensor, _version:", torch.tensor([1.0, 2.0, 3.0]).clone()._version)
