"""Autograd still saves tensors for everything before a detach(); no_grad() saves none."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
saved = []


def pack(tensor):
    saved.append(tuple(tensor.shape))  # called each time autograd saves a tensor for backward
    return tensor


def count_saved(compute):
    saved.clear()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        compute()
    return len(saved)


print("saved by sin(x**2):", count_saved(lambda: x.pow(2).sin()))
print("saved by sin(x**2 detached):", count_saved(lambda: x.pow(2).detach().sin()))
with torch.no_grad():
    print("saved under no_grad():", count_saved(lambda: x.pow(2).sin()))
with torch.inference_mode():
    print("saved under inference_mode():", count_saved(lambda: x.pow(2).sin()))
