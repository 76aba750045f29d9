"""detach() cuts the backward graph: only the attached use of x leads back to x.grad."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * 2 + x.detach() * 3).sum()


def show(node, depth=1):
    """Print the backward graph below node: one function per line, two spaces per level."""
    if node is None:
        print("  " * depth + "(input that needs no gradient)")
        return
    name = node.name().split("::")[-1]
    if getattr(node, "variable", None) is x:
        name += " -> x.grad"
    print("  " * depth + name)
    for child, _ in node.next_functions:
        show(child, depth + 1)


print("backward graph of loss:")
show(loss.grad_fn)
