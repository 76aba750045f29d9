"""Under saved-tensor hooks, an edit through detach() of a tensor saved for backward goes unnoticed: backward() runs on, and its gradient comes from the edited values unless the hooks kept a copy; torch.utils.checkpoint, built on such hooks, still checks."""
import contextlib

import torch
from torch.utils.checkpoint import checkpoint

hooks = {
    "without hooks": contextlib.nullcontext,
    "hooks that keep the tensor itself": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
    "hooks that keep a copy": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t),
    "save_on_cpu()": torch.autograd.graph.save_on_cpu,
    "save_on_cpu(pin_memory=True)": lambda: torch.autograd.graph.save_on_cpu(pin_memory=True),
}


def squares(t):
    return (t * t).sum()  # saves t for backward; its gradient is 2 * t = [2, 4, 6]


def under(around):
    def compute(x):
        with around():
            return squares(x)

    return compute


losses = {name: under(around) for name, around in hooks.items()}
losses["checkpoint(use_reentrant=False)"] = lambda x: checkpoint(squares, x, use_reentrant=False)

for name, compute in losses.items():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = compute(x)
    x.detach()[0] = 10.0  # moves x's version counter
    try:
        loss.backward()
        print(f"{name}, backward(): ran")
    except RuntimeError as error:
        print(f"{name}, backward(): RuntimeError: {error}")
    print(f"{name}, x.grad: {None if x.grad is None else x.grad.tolist()}")
