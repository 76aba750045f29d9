"""Exercise: whether a tensor made in inference mode, or its clone made outside, is an inference tensor."""
import torch

with torch.inference_mode():
    y = torch.ones(2)
c = y.clone()
print("y.is_inference():", y.is_inference())
print("c.is_inference():", c.is_inference())
print("c.requires_grad:", c.requires_grad)
