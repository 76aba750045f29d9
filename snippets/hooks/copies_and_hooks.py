"""detach(), clone() and copy.deepcopy() carry no tensor hooks over; gradient through a clone still runs x's hook."""
import copy

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
ran = []


def log(name):
    def hook(grad):
        ran.append(name)
    return hook


x_handle = x.register_hook(log("x"))
cloned = x.clone()
cloned_handle = cloned.register_hook(log("cloned"))
(cloned * 3).sum().backward()
print("hooks run, backward through x.clone():", ran)

ran.clear()
duplicate = copy.deepcopy(x)
(duplicate * 3).sum().backward()
print("hooks run, backward through copy.deepcopy(x):", ran)

ran.clear()
new_leaf = x.detach().requires_grad_()
(new_leaf * 3).sum().backward()
print("hooks run, backward through x.detach().requires_grad_():", ran)

detached = x.detach()
print("detached.requires_grad:", detached.requires_grad)
detached_handle = detached.register_hook(log("detached"))  # raises RuntimeError
