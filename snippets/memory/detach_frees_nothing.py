"""detach() allocates no storage and frees no graph: the graph lives until its last owner is gone."""
import weakref

import torch

saved = []  # a weak reference to every tensor autograd saves for backward


def pack(tensor):
    saved.append(weakref.ref(tensor))
    return tensor


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
    y = (x * 2).pow(2)  # pow() saves its input, x * 2, which has no other owner

detached = y.detach()
print("same storage:", detached.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
print("saved tensors alive after detach():", sum(ref() is not None for ref in saved))
del y  # the last owner of the graph
print("saved tensors alive after del y:", sum(ref() is not None for ref in saved))
