"""A tensor fed to two heads needs no clone(): the gradients add up the same with and without it; a clone matters when one head edits the shared tensor in place."""
import torch


def gradient(prepare):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    shared = x * 3  # an intermediate representation, used by two heads
    loss_a = prepare(shared).sin().sum()  # head a: sin() saves its input
    loss_b = (prepare(shared) * 2).sum()  # head b
    (loss_a + loss_b).backward()
    return x.grad


print("x.grad, both heads read shared:", gradient(lambda shared: shared))
print("x.grad, each head reads shared.clone():", gradient(lambda shared: shared.clone()))

x = torch.tensor([1.0, 2.0], requires_grad=True)
shared = x * 3
head_a = shared.sin()  # saves shared for backward
head_b_on_a_clone = shared.clone().mul_(2)  # an in-place head on its own copy
(head_a.sum() + head_b_on_a_clone.sum()).backward()
print("x.grad, in-place head on shared.clone():", x.grad)

x = torch.tensor([1.0, 2.0], requires_grad=True)
shared = x * 3
head_a = shared.sin()
head_b_in_place = shared.mul_(2)  # edits the tensor head a saved
(head_a.sum() + head_b_in_place.sum()).backward()  # raises RuntimeError
