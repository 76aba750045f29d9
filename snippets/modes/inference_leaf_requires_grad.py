"""A tensor made inside inference mode and set to require grad there is an inference tensor that requires grad: outside the mode, some operations on it are recorded and others are not (w * w: backward() finds no graph), while a clone of it is recorded and fills its .grad."""
import torch

with torch.inference_mode():
    w = torch.tensor([1.0, 2.0, 3.0]).requires_grad_()  # allowed inside the mode

print("w.is_inference():", w.is_inference())
print("w.requires_grad:", w.requires_grad)

results = {"w + 1": w + 1, "w * 2": w * 2, "w * w": w * w, "w.exp()": w.exp(), "w.sum()": w.sum()}
for label, result in results.items():  # computed outside inference mode
    print(f"{label}: grad_fn {type(result.grad_fn).__name__ if result.grad_fn else None}")

y = results["w * w"]
print("(w * w).requires_grad:", y.requires_grad)
print("(w * w).grad_fn:", y.grad_fn)
try:
    y.sum().backward()
    print("(w * w).sum().backward() -> ok")
except RuntimeError as error:
    print("(w * w).sum().backward() ->", f"{type(error).__name__}: {error}")

c = w.clone()  # outside inference mode: recorded
print("w.clone().grad_fn:", type(c.grad_fn).__name__)
(c * c).sum().backward()
print("w.grad after backward through the clone:", w.grad)

w = w.detach_()  # detach_() returns w itself
print("after w.detach_(), w.requires_grad:", w.requires_grad)
