"""An edit through x.data skips x's version counter: backward() silently returns a wrong gradient."""
import torch


def gradient(edit):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (x * x).sum()  # saves x for backward: d(loss)/dx = 2 * x
    if edit:
        x.data[0] = 10.0  # same memory, but a counter of its own
        print("x._version after the edit:", x._version)
    loss.backward()
    return x.grad


print("x.grad without the edit:", gradient(edit=False))
print("x.grad with the edit:", gradient(edit=True))
