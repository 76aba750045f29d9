"""Ways to copy a tensor's values into another tensor or a new one: which allocate, which share, which stay in the graph, which warn."""
import warnings

import torch


def storage(t):
    return t.untyped_storage().data_ptr()


def copy_into(src):
    dst = torch.zeros(3)
    before = storage(dst)
    dst.copy_(src)
    return dst, before


def slice_all(src):
    dst = torch.zeros(3)
    before = storage(dst)
    dst[:] = src
    return dst, before


def slice_part(src):
    dst = torch.zeros(5)
    before = storage(dst)
    dst[1:4] = src
    return dst, before


WAYS = {
    "src.clone()": lambda src: (src.clone(), None),
    "dst.copy_(src)": copy_into,
    "dst[:] = src": slice_all,
    "dst[1:4] = src": slice_part,
    "torch.tensor(src)": lambda src: (torch.tensor(src), None),
    "src.new_tensor(src)": lambda src: (src.new_tensor(src), None),
    "torch.as_tensor(src)": lambda src: (torch.as_tensor(src), None),
    "torch.as_tensor(src, dtype=torch.float64)": lambda src: (torch.as_tensor(src, dtype=torch.float64), None),
}
messages = {}


def row(name, make):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    src = x * 2  # a tensor in the graph
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, dst_storage = make(src)
    for warning in caught:
        messages[name] = f"{warning.category.__name__}: {warning.message}"
    if storage(result) == storage(src):
        memory = "src's"
    elif storage(result) == dst_storage:
        memory = "dst's own"
    else:
        memory = "new"
    grad_fn = type(result.grad_fn).__name__ if result.grad_fn is not None else "-"
    if result.requires_grad:
        result.sum().backward()
    reaches = "yes" if x.grad is not None else "no"
    warned = ", ".join(w.category.__name__ for w in caught) or "-"
    return [name, "yes" if result is src else "no", memory, grad_fn, reaches, warned]


HEADER = ["way", "result is src", "memory of the result", "grad_fn of the result",
          "gradient reaches x", "warns"]
print("src = x * 2, where x is a leaf that requires grad:")
print("| " + " | ".join(HEADER) + " |")
print("|" + "---|" * len(HEADER))
for name, make in WAYS.items():
    print("| " + " | ".join(row(name, make)) + " |")
print()
for name, message in messages.items():
    print(f"{name} warns: {message}")
