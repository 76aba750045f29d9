"""In-place changes of a detached tensor's shape, strides or storage (the six tried here) move the version counter it shares with its source, so a pending backward() that saved the source raises."""
import torch

EDITS = {
    "transpose_(0, 1)": lambda d: d.transpose_(0, 1),
    "t_()": lambda d: d.t_(),
    "unsqueeze_(0)": lambda d: d.unsqueeze_(0),
    "as_strided_((3, 2), (1, 3))": lambda d: d.as_strided_((3, 2), (1, 3)),
    "resize_(3, 2)": lambda d: d.resize_(3, 2),
    "set_(torch.zeros(4))": lambda d: d.set_(torch.zeros(4)),
}

print("x = torch.ones(2, 3, requires_grad=True); loss = (x * x).sum() saved x; then x.detach().<edit>:")
print("| edit | x.shape after | x._version | pending backward() |")
print("| --- | --- | --- | --- |")
messages = {}
for name, edit in EDITS.items():
    x = torch.ones(2, 3, requires_grad=True)
    loss = (x * x).sum()
    edited = edit(x.detach())
    try:
        loss.backward()
        outcome = "ran"
    except RuntimeError as error:
        outcome = type(error).__name__
        messages[name] = f"{type(error).__name__}: {error}"
    print(f"| {name} | {tuple(x.shape)} | {x._version} | {outcome} |")
for name, message in messages.items():
    print(f"backward() after {name}:", message)
