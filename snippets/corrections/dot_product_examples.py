"""The article's five a @ b examples, rerun: what it prints for a, b, a.grad and b.grad comes out as it reports."""
import torch


def first_operand(example, a):
    """What each example multiplies with b."""
    if example == 1:
        return a
    if example == 2:
        return a.detach()
    edited = a.detach() if example == 3 else a.clone()
    edited[0] += 2  # examples 3 to 5 edit the detached or cloned tensor in place
    return edited if example == 5 else a


for example in range(1, 6):
    a = torch.tensor([1.0, 1.0], requires_grad=True)
    b = torch.tensor([2.0, 2.0], requires_grad=True)
    (first_operand(example, a) @ b).backward()
    print(f"example {example}:", a, b, "|", a.grad, b.grad)  # the post's print(a, b), print(a.grad, b.grad)
