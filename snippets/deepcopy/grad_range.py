"""copy.deepcopy copies .grad for a plain tensor only: a Parameter, alone or in a module, comes out with .grad None."""
import copy

import torch

rows = ["| what is deep-copied | the copy's .grad | .grad shares memory with the original's |",
        "| --- | --- | --- |"]


def row(name, original, duplicate):
    if duplicate.grad is None:
        rows.append(f"| {name} | None | - |")
        return
    shared = duplicate.grad.untyped_storage().data_ptr() == original.grad.untyped_storage().data_ptr()
    rows.append(f"| {name} | {duplicate.grad.tolist()} | {'yes' if shared else 'no'} |")


leaf = torch.ones(2, requires_grad=True)
(leaf * 3).sum().backward()
row("a leaf tensor", leaf, copy.deepcopy(leaf))

in_a_list = torch.ones(2, requires_grad=True)
(in_a_list * 3).sum().backward()
row("a leaf tensor in a list", in_a_list, copy.deepcopy([in_a_list])[0])

parameter = torch.nn.Parameter(torch.ones(2))
(parameter * 3).sum().backward()
row("an nn.Parameter", parameter, copy.deepcopy(parameter))

model = torch.nn.Linear(2, 1, bias=False)
model(torch.ones(1, 2)).sum().backward()
row("a module (its weight)", model.weight, copy.deepcopy(model).weight)
print("\n".join(rows))
