"""copy_ and slice assignment into an existing tensor are recorded when the source or the destination requires grad; into a leaf that requires grad (a parameter) they raise unless they run under torch.no_grad(), where nothing is recorded."""
import contextlib

import torch


def destinations():
    return {
        "a plain tensor": torch.zeros(3),
        "a leaf that requires grad": torch.zeros(3, requires_grad=True),
        "an nn.Parameter": torch.nn.Parameter(torch.zeros(3)),
        "a non-leaf (leaf * 1)": torch.zeros(3, requires_grad=True) * 1,
    }


def source(requires_grad):
    x = torch.ones(3, requires_grad=requires_grad)
    return x * 2  # in x's graph when x requires grad


WRITES = {"dst.copy_(src)": lambda dst, src: dst.copy_(src),
          "dst[:] = src": lambda dst, src: dst.__setitem__(slice(None), src)}

COLUMNS = [(write_name, context) for context in ["none", "torch.no_grad()"] for write_name in WRITES]
print("| dst, src | " + " | ".join(
    name if context == "none" else f"{name}, under no_grad()" for name, context in COLUMNS) + " |")
print("|---|" + "---|" * len(COLUMNS))
messages = set()
for name in destinations():
    for src_requires_grad in [True, False]:
        cells = []
        for write_name, context in COLUMNS:
            dst, src = destinations()[name], source(src_requires_grad)
            try:
                with torch.no_grad() if context != "none" else contextlib.nullcontext():
                    written = WRITES[write_name](dst, src)
                cells.append("grad_fn " + (type(dst.grad_fn).__name__ if dst.grad_fn else "None"))
            except RuntimeError as error:
                cells.append("RuntimeError")
                messages.add(str(error))
        src_kind = "src requires grad" if src_requires_grad else "src needs no grad"
        print(f"| {name}, {src_kind} | " + " | ".join(cells) + " |")
for message in sorted(messages):
    print("RuntimeError:", message)  # each message in full
