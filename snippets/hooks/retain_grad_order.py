"""retain_grad() stores the gradient after every tensor hook has run, whichever was registered first."""
import torch


def scale_by_ten(grad):
    return grad * 10


for order in ["hook, then retain_grad()", "retain_grad(), then hook"]:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    if order.startswith("hook"):
        handle = y.register_hook(scale_by_ten)
        y.retain_grad()
    else:
        y.retain_grad()
        handle = y.register_hook(scale_by_ten)
    y.sum().backward()
    print(f"{order}: y.grad {y.grad}, x.grad {x.grad}")
