"""Every common way to get "another" tensor, and what the result shares with its source x."""
# device-dependent: .cpu(), .to() and NumPy round trips copy, return x itself or refuse by device
import copy
import warnings

import torch


def under(mode, operation):
    def run(x):
        with mode():
            return operation(x)
    return run


OPERATIONS = {
    "t = x": lambda x: x,
    "x.detach()": lambda x: x.detach(),
    "x.clone()": lambda x: x.clone(),
    "x.detach().clone()": lambda x: x.detach().clone(),
    "x.clone().detach()": lambda x: x.clone().detach(),
    "copy.copy(x)": lambda x: copy.copy(x),
    "copy.deepcopy(x)": lambda x: copy.deepcopy(x),
    "x.data": lambda x: x.data,
    "torch.tensor(x)": lambda x: torch.tensor(x),
    "x.new_tensor(x)": lambda x: x.new_tensor(x),
    "x[1:]": lambda x: x[1:],
    "x.view(-1)": lambda x: x.view(-1),
    "x.to(x.device)": lambda x: x.to(x.device),
    "x.to(x.device, copy=True)": lambda x: x.to(x.device, copy=True),
    "x.cpu()": lambda x: x.cpu(),
    "from_numpy(x.detach().numpy())": lambda x: torch.from_numpy(x.detach().numpy()),
    "x.requires_grad_(False)": lambda x: x.requires_grad_(False),
    "x.detach_()": lambda x: x.detach_(),
    "no_grad: x.clone()": under(torch.no_grad, lambda x: x.clone()),
    "inference_mode: x.clone()": under(torch.inference_mode, lambda x: x.clone()),
    "x.contiguous()": lambda x: x.contiguous(),
    "torch.as_tensor(x)": lambda x: torch.as_tensor(x),
}


messages = {}  # each warning or error message, and the first operation that gave it


def inspect(make_source, name, operation):
    x = make_source()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = operation(x)
        except Exception as error:
            message = f"{type(error).__name__}: {error}"
            if message not in messages:
                messages[message] = name
            return [name, "-", "-", "-", "-", "-", "-", type(error).__name__]
    for warning in caught:
        message = f"{warning.category.__name__}: {warning.message}"
        if message not in messages:
            messages[message] = name
    note = ", ".join(sorted({w.category.__name__ for w in caught})) or "-"
    yes_no = {True: "yes", False: "no"}
    row = [name, yes_no[result is x],
           yes_no[result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()]]
    flags = [str(result.requires_grad), str(result.is_leaf),
             result.grad_fn.name() if result.grad_fn is not None else "-", note]
    try:
        version = result._version
        with torch.no_grad():
            x.add_(0)  # an in-place write to x: does the result's version move too?
        shared_version = yes_no[result._version != version]
    except RuntimeError as error:  # inference tensors have no version counter
        message = f"{type(error).__name__}: {error}"
        if message not in messages:
            messages[message] = f"{name}, then ._version"
        shared_version = "n/a"
    return row + [shared_version] + flags


SOURCES = {
    "a leaf that requires grad": lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True),
    "a non-leaf (a leaf times 2)": lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2,
}
HEADER = ["operation", "same object", "shares storage", "shares version", "requires_grad",
          "is_leaf", "grad_fn", "warns or raises"]
for source_name, make_source in SOURCES.items():
    print(f"x is {source_name}:")
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for name, operation in OPERATIONS.items():
        print("| " + " | ".join(inspect(make_source, name, operation)) + " |")
    print()
for message, name in messages.items():
    print(f"message for {name}:", message)
