"""A write into the array from x.detach().numpy() moves no version counter: the gradient comes out wrong, silently."""
import torch


def gradient(edit):
    x = torch.tensor([1.0, 2.0, 3.0], device="cpu", requires_grad=True)  # NumPy needs CPU
    loss = (x * x).sum()  # saves x for backward: d(loss)/dx = 2 * x
    if edit:
        array = x.detach().numpy()  # same memory; NumPy knows nothing of versions
        array[0] = 10.0
        print("x._version after the edit:", x._version)
    loss.backward()
    return x.grad


print("x.grad without the edit:", gradient(edit=False))
print("x.grad with the edit:", gradient(edit=True))
