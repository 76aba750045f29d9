"""copy.copy(x) of a tensor is a new tensor object over x's memory, with a version counter of its own, so a write through it changes x unseen by autograd; x.clone() has memory of its own and stays in the graph."""
import copy

import torch

print("| y = | y is x | y shares x's memory | x's version moves on y[0] = 5 | y.grad_fn | x after y[0] = 5 |")
print("| --- | --- | --- | --- | --- | --- |")
for name in ("copy.copy(x)", "x.clone()"):
    x = torch.ones(3, requires_grad=True)
    y = copy.copy(x) if name == "copy.copy(x)" else x.clone()
    shares = y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    grad_fn = type(y.grad_fn).__name__ if y.grad_fn is not None else None
    before = x._version
    with torch.no_grad():
        y[0] = 5
    print(f"| {name} | {y is x} | {shares} | {x._version != before} | {grad_fn} | {x.detach().tolist()} |")
