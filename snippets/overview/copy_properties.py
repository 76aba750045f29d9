"""Five ways to "copy" a tensor x, each tested on a fresh leaf x for what it really copies."""
import copy

import torch

ways = {
    "t = x": lambda x: x,
    "x.detach()": lambda x: x.detach(),
    "x.clone()": lambda x: x.clone(),
    "x.detach().clone()": lambda x: x.detach().clone(),
    "copy.deepcopy(x)": lambda x: copy.deepcopy(x),
}


def yes_no(flag):
    return "yes" if flag else "no"


def properties(make):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # a fresh leaf for each test
    result = make(x)
    new_object = result is not x
    new_metadata = result._cdata != x._cdata  # its own TensorImpl: shape, strides, flags
    new_storage = result.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    if result.requires_grad:
        result.sum().backward()
    history = x.grad is not None  # did a gradient flow back from the result into x?
    flags = [new_object, new_metadata, new_storage, result.requires_grad, history]
    return [yes_no(flag) for flag in flags]


columns = ["operation", "new object", "new metadata", "new storage", "requires grad",
           "grad flows to x"]
rows = [[name] + properties(make) for name, make in ways.items()]
lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
lines += ["| " + " | ".join(row) + " |" for row in rows]
print("\n".join(lines))  # one print: one block of output, shown as a table
