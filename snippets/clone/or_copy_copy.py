"""copy.copy(x) of a tensor is a new leaf over x's memory, with a version counter of its own: a write through it changes x unseen by autograd, and no gradient reaches x through it; x.clone() has memory of its own and stays in the graph."""
import copy

import torch

print("| y = | y is x | y.is_leaf | y shares x's memory | x.grad after (y * 3).sum().backward() | x's version moves on y[0] = 5 | x after y[0] = 5 |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for name in ("copy.copy(x)", "x.clone()"):
    x = torch.ones(3, requires_grad=True)
    y = copy.copy(x) if name == "copy.copy(x)" else x.clone()
    leaf = y.is_leaf
    shares = y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    (y * 3).sum().backward()
    grad = None if x.grad is None else x.grad.tolist()
    before = x._version
    with torch.no_grad():
        y[0] = 5
    print(f"| {name} | {y is x} | {leaf} | {shares} | {grad} | {x._version != before} | {x.detach().tolist()} |")
