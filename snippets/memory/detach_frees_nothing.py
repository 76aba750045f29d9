"""detach() allocates no storage and frees no graph: the graph lives until its last owner is gone."""
import weakref

import torch

saved = []  # a weak reference to what the graph keeps for every tensor it saves for backward


class Saved:
    """What the graph keeps for a tensor it saves: a box holding a detached alias of it."""

    def __init__(self, tensor):
        self.tensor = tensor.detach()


def pack(tensor):
    box = Saved(tensor)
    saved.append(weakref.ref(box))
    return box


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.tensor):
    y = (x * 2).pow(2)  # pow() saves its input, x * 2, which has no other owner

detached = y.detach()
print("same storage:", detached.untyped_storage().data_ptr() == y.untyped_storage().data_ptr())
print("saved tensors alive after detach():", sum(ref() is not None for ref in saved))
del y  # the last owner of the graph
print("saved tensors alive after del y:", sum(ref() is not None for ref in saved))
