"""An in-place edit of a leaf that requires grad (a tensor, a new leaf from detach().requires_grad_(), or a Parameter) raises while autograd records and works under torch.no_grad(); a non-leaf or a tensor that needs no grad can be edited either way."""
import contextlib

import torch


def tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return {
        "x, a leaf that requires grad": x,
        "x.detach().requires_grad_()": torch.tensor([1.0, 2.0], requires_grad=True).detach().requires_grad_(),
        "an nn.Parameter": torch.nn.Parameter(torch.tensor([1.0, 2.0])),
        "x * 1, a non-leaf": torch.tensor([1.0, 2.0], requires_grad=True) * 1,
        "a tensor that needs no grad": torch.tensor([1.0, 2.0]),
    }


print("| tensor | t *= 10 | t *= 10 under no_grad() |")
print("| --- | --- | --- |")
for name in tensors():
    cells = []
    for context in [contextlib.nullcontext, torch.no_grad]:
        t = tensors()[name]
        try:
            with context():
                t *= 10
            cells.append(f"ok, version {t._version}")
        except RuntimeError:
            cells.append("RuntimeError")
    print(f"| {name} | " + " | ".join(cells) + " |")
