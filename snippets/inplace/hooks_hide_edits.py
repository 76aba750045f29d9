"""Under saved-tensor hooks, an edit through detach() of a tensor saved for backward goes unnoticed: backward() runs on, and its gradient comes from the edited values unless the hooks kept a copy."""
import contextlib

import torch

hooks = {
    "without hooks": contextlib.nullcontext,
    "hooks that keep the tensor itself": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t),
    "hooks that keep a copy": lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t),
    "save_on_cpu()": torch.autograd.graph.save_on_cpu,
}

for name, around in hooks.items():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with around():
        loss = (x * x).sum()  # saves x for backward; its gradient is 2 * x = [2, 4, 6]
    x.detach()[0] = 10.0  # moves x's version counter
    try:
        loss.backward()
        print(f"{name}, backward(): ran")
    except RuntimeError as error:
        print(f"{name}, backward(): RuntimeError: {error}")
    print(f"{name}, x.grad: {None if x.grad is None else x.grad.tolist()}")
