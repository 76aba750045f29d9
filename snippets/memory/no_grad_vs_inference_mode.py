"""no_grad() and inference_mode() both give results that need no grad; only inference_mode() marks them as inference tensors."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    from_no_grad = x * 2
with torch.inference_mode():
    from_inference = x * 2

print("no_grad requires_grad:", from_no_grad.requires_grad)
print("no_grad is_inference:", from_no_grad.is_inference())
print("inference_mode requires_grad:", from_inference.requires_grad)
print("inference_mode is_inference:", from_inference.is_inference())

w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
(w * from_no_grad).sum().backward()  # a no_grad() result is an ordinary tensor later
print("w.grad:", w.grad)
