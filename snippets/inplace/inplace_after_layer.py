"""An in-place activation right after an operation that saved its output for backward breaks backward(); after one that saved only its inputs, such as Linear or a product, it is allowed."""
import torch

BEFORE = {
    "nn.Linear(3, 3)": torch.nn.Linear(3, 3),
    "nn.Conv1d(3, 3, 1)": torch.nn.Conv1d(3, 3, 1),
    "nn.BatchNorm1d(3)": torch.nn.BatchNorm1d(3),
    "x * w": lambda x: x * torch.ones(3, 3, requires_grad=True),
    "torch.sigmoid": torch.sigmoid,
    "torch.tanh": torch.tanh,
    "torch.exp": torch.exp,
    "nn.Softmax(dim=-1)": torch.nn.Softmax(dim=-1),
    "nn.ReLU()": torch.nn.ReLU(),
}
AFTER = {
    "nn.ReLU(inplace=True)": torch.nn.ReLU(inplace=True),
    "out += 1": lambda out: out.add_(1),  # what `out += 1` runs on a tensor
}

print("| operation | then nn.ReLU(inplace=True) | then out += 1 |")
print("| --- | --- | --- |")
messages = {}  # each message, and the first operation that gave it
for name, before in BEFORE.items():
    cells = []
    for after in AFTER.values():
        x = torch.ones(1, 3, 3, requires_grad=True) if "Conv" in name else torch.ones(3, 3, requires_grad=True)
        out = after(before(x))
        try:
            out.sum().backward()
            cells.append("ok")
        except RuntimeError as error:
            cells.append("RuntimeError")
            message = f"{type(error).__name__}: {error}"
            if message not in messages:
                messages[message] = name
    print(f"| {name} | " + " | ".join(cells) + " |")
for message, name in messages.items():
    print(f"message after {name}:", message)
