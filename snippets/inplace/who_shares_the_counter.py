"""Four routes to x's memory: all of them write into x, but only detach() moves x's version counter."""
import copy

import torch

routes = {
    "x.detach()": lambda x: x.detach(),
    "x.data": lambda x: x.data,
    "x.detach().numpy()": lambda x: x.detach().numpy(),
    "copy.copy(x)": lambda x: copy.copy(x),
}
for name, route in routes.items():
    x = torch.tensor([1.0, 2.0, 3.0], device="cpu", requires_grad=True)  # NumPy needs CPU
    alias = route(x)
    with torch.no_grad():  # copy.copy(x) is itself a leaf that requires grad
        alias[0] = 10.0
    print(f"{name}: x[0] is now {x[0].item()}, x._version is {x._version}")
