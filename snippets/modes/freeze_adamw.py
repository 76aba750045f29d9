"""AdamW and a weight frozen halfway through training: with .grad left as zeros (zero_grad(set_to_none=False)) the step moved the frozen weight; with .grad None (zero_grad()) it did not; and an optimizer given only the parameters that still required grad never held it."""
import torch


def train_then_freeze(set_to_none, only_trainable):
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    x = torch.ones(4, 2)
    first = torch.optim.AdamW(layer.parameters(), lr=0.1, weight_decay=0.1)
    layer(x).sum().backward()
    first.step()  # one step with every parameter training
    layer.weight.requires_grad_(False)  # then the weight is frozen
    if only_trainable:  # a new optimizer, given what still requires grad
        optimizer = torch.optim.AdamW(
            [p for p in layer.parameters() if p.requires_grad], lr=0.1, weight_decay=0.1
        )
    else:
        optimizer = first
    before = layer.weight.clone()
    first.zero_grad(set_to_none=set_to_none)
    layer(x).sum().backward()  # the bias still trains
    optimizer.step()
    return layer.weight.grad, torch.equal(before, layer.weight)


for label, set_to_none, only_trainable in [
    ("zero_grad(set_to_none=False)", False, False),
    ("zero_grad()", True, False),
    ("optimizer of the trainable parameters", False, True),
]:
    grad, unchanged = train_then_freeze(set_to_none, only_trainable)
    print(f"{label}, frozen weight.grad:", grad)
    print(f"{label}, frozen weight unchanged by the step:", unchanged)
