"""Inside a no_grad() block, with no nested block switching recording back, three things still record: another thread (grad mode belongs to a thread), a backward pass with create_graph=True, and torch.func.grad."""
import threading

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x**3).sum()  # recorded before the block
found = {}


def in_another_thread():
    found["another thread"] = x * 2


with torch.no_grad():
    print("torch.is_grad_enabled() inside the block:", torch.is_grad_enabled())
    worker = threading.Thread(target=in_another_thread)
    worker.start()
    worker.join()
    (gradient,) = torch.autograd.grad(loss, x, create_graph=True)
    found["autograd.grad(loss, x, create_graph=True)"] = gradient
    found["x * 2 in this thread"] = x * 2
    square_sum_gradient = torch.func.grad(lambda t: (t * t).sum())(torch.tensor([1.0, 2.0]))
    print("torch.func.grad of (t * t).sum() at [1., 2.]:", square_sum_gradient)

for name, result in found.items():
    print(f"{name}: grad_fn {type(result.grad_fn).__name__ if result.grad_fn else None}")
