"""Which copies carry .grad: copy.deepcopy of a plain tensor does; copy.deepcopy of a Parameter, alone or in a module, does not, and neither do clone() and detach().clone()."""
import copy
import warnings

import torch

rows = ["| copy | the copy's .grad | .grad shares memory with the original's |", "| --- | --- | --- |"]
warned = {}  # copy -> the warning reading its .grad gave


def row(name, original, duplicate):
    with warnings.catch_warnings(record=True) as caught:  # reading a non-leaf's .grad warns
        warnings.simplefilter("always")
        grad = duplicate.grad
    for warning in caught:
        warned[name] = f"{warning.category.__name__}: {warning.message}"
    if grad is None:
        rows.append(f"| {name} | None | - |")
        return
    shared = grad.untyped_storage().data_ptr() == original.grad.untyped_storage().data_ptr()
    rows.append(f"| {name} | {grad.tolist()} | {'yes' if shared else 'no'} |")


def leaf_with_grad():
    x = torch.ones(2, requires_grad=True)
    (x * 3).sum().backward()
    return x


x = leaf_with_grad()
row("copy.deepcopy(x), x a leaf tensor", x, copy.deepcopy(x))
row("copy.deepcopy([x])[0]", x, copy.deepcopy([x])[0])
row("x.clone()", x, x.clone())
row("x.detach().clone()", x, x.detach().clone())

parameter = torch.nn.Parameter(torch.ones(2))
(parameter * 3).sum().backward()
row("copy.deepcopy(p), p an nn.Parameter", parameter, copy.deepcopy(parameter))

model = torch.nn.Linear(2, 1, bias=False)
model(torch.ones(1, 2)).sum().backward()
row("copy.deepcopy(model).weight", model.weight, copy.deepcopy(model).weight)
print("\n".join(rows))
for name, message in warned.items():
    print(f"reading the .grad of {name} warns:", message)
