"""A hand-written update: w -= lr * w.grad raises outside no_grad(); w = w - lr * w.grad makes w a non-leaf whose .grad stays None, so the next update fails; under no_grad() the in-place update keeps w the leaf it was."""
import warnings

import torch

lr = 0.1
rows = ["| update | w.is_leaf after | w.grad after the next backward() | the next update |",
        "| --- | --- | --- | --- |"]


def next_grad(w):
    (w * w).sum().backward()
    with warnings.catch_warnings(record=True):  # reading a non-leaf's .grad warns
        return str(w.grad)


def next_update(w):
    """The same update once more, as the next step of a loop would run it."""
    try:
        with warnings.catch_warnings(record=True):
            stepped = w - lr * w.grad
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

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
w -= lr * w.grad  # raises RuntimeError
