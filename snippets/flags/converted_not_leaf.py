"""A tensor converted, scaled or reshaped right after it was made with requires_grad=True is not a leaf, so its .grad stays None; make it in its final form first, then call requires_grad_()."""
import warnings

import torch

WAYS = {
    "torch.randn(3, requires_grad=True).double()": lambda: torch.randn(3, requires_grad=True).double(),
    "torch.randn(3, requires_grad=True).to(torch.float64)":
        lambda: torch.randn(3, requires_grad=True).to(torch.float64),
    "torch.randn(3, requires_grad=True, device='cpu').to('cpu')": lambda: torch.randn(3, requires_grad=True, device="cpu").to("cpu"),
    "torch.randn(3, requires_grad=True) * 0.01": lambda: torch.randn(3, requires_grad=True) * 0.01,
    "torch.randn(4, requires_grad=True).view(2, 2)": lambda: torch.randn(4, requires_grad=True).view(2, 2),
    "torch.randn(3).double().requires_grad_()": lambda: torch.randn(3).double().requires_grad_(),
    "(torch.randn(3) * 0.01).requires_grad_()": lambda: (torch.randn(3) * 0.01).requires_grad_(),
    "torch.randn(3, dtype=torch.float64, requires_grad=True)":
        lambda: torch.randn(3, dtype=torch.float64, requires_grad=True),
}

print("| w = | w.is_leaf | w.grad after backward() | reading w.grad warns |")
print("| --- | --- | --- | --- |")
message = None
for name, make in WAYS.items():
    w = make()
    (w * 2).sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grad = w.grad
    if caught:
        message = f"{caught[0].category.__name__}: {caught[0].message}"
    print(f"| {name} | {w.is_leaf} | {None if grad is None else grad.tolist()} | {'yes' if caught else 'no'} |")
print("warning:", message)
