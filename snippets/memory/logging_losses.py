"""A list of losses that no backward() ran through keeps every step's saved tensors alive; loss.detach() and loss.item() keep none, nor does a loss after its backward()."""
import weakref

import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)


class Saved:
    """What the graph keeps for a tensor it saves: a box holding a detached alias of it."""

    def __init__(self, tensor):
        self.tensor = tensor.detach()


def saved_tensors_alive(keep, backward=False):
    saved, logged = [], []

    def pack(tensor):  # autograd calls it for every tensor it saves for backward
        box = Saved(tensor)
        saved.append(weakref.ref(box))  # a weak reference: it keeps nothing alive
        return box

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.tensor):
        for step in range(3):
            loss = (w * (step + 1.0)).pow(2).sum()  # pow() saves its input
            if backward:
                loss.backward()  # frees what the graph saved (no retain_graph)
            logged.append(keep(loss))
    del loss
    return f"{sum(ref() is not None for ref in saved)} of {len(saved)}"


print("logging loss:", saved_tensors_alive(lambda loss: loss))
print("logging loss.detach():", saved_tensors_alive(lambda loss: loss.detach()))
print("logging loss.item():", saved_tensors_alive(lambda loss: loss.item()))
print("logging loss after loss.backward():", saved_tensors_alive(lambda loss: loss, backward=True))
