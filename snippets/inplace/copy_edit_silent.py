"""copy.copy(t) shares t's memory but not its version counter: editing the "copy" silently corrupts a gradient."""
import copy

import torch


def gradient(edit):
    w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    inputs = torch.tensor([1.0, 2.0, 3.0])
    loss = (w * inputs).sum()  # saves inputs for backward: d(loss)/dw = inputs
    if edit:
        snapshot = copy.copy(inputs)  # looks like a copy, shares the memory
        snapshot[0] = 10.0
        print("inputs after editing the copy:", inputs)
        print("inputs._version:", inputs._version)
    loss.backward()
    return w.grad


print("w.grad without the edit:", gradient(edit=False))
print("w.grad with the edit:", gradient(edit=True))
