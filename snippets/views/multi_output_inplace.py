"""An in-place edit of one output of split(), chunk() or unbind() raises while autograd records; a single view such as narrow() or select() may be edited, and under no_grad() all of them may."""
import contextlib

import torch

OPERATIONS = {
    "x.split(2)[0]": lambda x: x.split(2)[0],
    "x.chunk(2)[0]": lambda x: x.chunk(2)[0],
    "x.unbind()[0]": lambda x: x.unbind()[0],
    "x.narrow(0, 0, 2)": lambda x: x.narrow(0, 0, 2),
    "x[0]": lambda x: x[0],
}

print("| output edited with mul_(2) | while recording | under no_grad() |")
print("| --- | --- | --- |")
messages = {}
for name, operation in OPERATIONS.items():
    cells = []
    for context in [contextlib.nullcontext, torch.no_grad]:
        x = torch.arange(4.0, requires_grad=True) * 1  # a non-leaf, so an in-place edit is allowed
        try:
            with context():
                edited = operation(x).mul_(2)
            cells.append("ok")
        except RuntimeError as error:
            cells.append("RuntimeError")
            messages[name] = str(error)
    print(f"| {name} | " + " | ".join(cells) + " |")
print("RuntimeError for x.split(2)[0]:", messages["x.split(2)[0]"])
print("RuntimeError for x.unbind()[0]:", messages["x.unbind()[0]"])
