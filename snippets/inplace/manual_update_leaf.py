"""A hand-written update: w -= lr * w.grad raises outside no_grad(); w = w - lr * w.grad makes w a non-leaf whose .grad stays None, so the next update fails; under no_grad() the in-place update keeps w the leaf it was."""
import warnings

import torch

lr = 0.1
rows = ["| update | w.is_leaf after | w.grad after the next backward() | the next update |",
        "| --- | --- | --- | --- |"]
warned = set()  # what reading w.grad warned, printed below the table


def read_grad(w):
    with warnings.catch_warnings(record=True) as caught:  # reading a non-leaf's .grad warns
        warnings.simplefilter("always")
        grad = w.grad
    warned.update(f"{warning.category.__name__}: {warning.message}" for warning in caught)
    return grad


def next_grad(w):
    (w * w).sum().backward()
    return str(read_grad(w))


def next_update(w):
    """The same update once more, as the next step of a loop would run it."""
    try:
        stepped = w - lr * read_grad(w)
        return "ran"
    except TypeError as error:
        return f"TypeError: {error}"


w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
w = w - lr * w.grad  # a new tensor computed from w: it has a history
rows.append(f"| w = w - lr * w.grad | {w.is_leaf} | {next_grad(w)} | {next_update(w)} |")

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
with torch.no_grad():
    w -= lr * w.grad
w.grad = None  # what optimizer.zero_grad() does
rows.append(f"| with torch.no_grad(): w -= lr * w.grad | {w.is_leaf} | {next_grad(w)} | {next_update(w)} |")
print("\n".join(rows))
for message in sorted(warned):
    print("reading w.grad warns:", message)

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
w -= lr * w.grad  # raises RuntimeError
