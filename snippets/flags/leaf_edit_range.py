"""An in-place edit of a leaf that requires grad (a tensor, a new leaf from detach().requires_grad_(), a Parameter) or of a view of one raises while autograd records, and works where it records nothing (no_grad(), set_grad_enabled(False), inference_mode()); a non-leaf or a tensor that needs no grad can be edited either way."""
import torch


def tensors():
    return {
        "x, a leaf that requires grad": torch.tensor([1.0, 2.0], requires_grad=True),
        "x.detach().requires_grad_()": torch.tensor([1.0, 2.0], requires_grad=True).detach().requires_grad_(),
        "an nn.Parameter": torch.nn.Parameter(torch.tensor([1.0, 2.0])),
        "x[:1], a view of such a leaf": torch.tensor([1.0, 2.0], requires_grad=True)[:1],
        "x * 1, a non-leaf": torch.tensor([1.0, 2.0], requires_grad=True) * 1,
        "a tensor that needs no grad": torch.tensor([1.0, 2.0]),
    }


CONTEXTS = {
    "t *= 10": None,
    "under no_grad()": torch.no_grad,
    "under set_grad_enabled(False)": lambda: torch.set_grad_enabled(False),
    "under inference_mode()": torch.inference_mode,
}

print("| tensor | " + " | ".join(CONTEXTS) + " |")
print("|---|" + "---|" * len(CONTEXTS))
messages = {}  # each message, and the first tensor that gave it
for name in tensors():
    cells = []
    for context in CONTEXTS.values():
        t = tensors()[name]  # made outside the context, as a model's weights are
        try:
            if context is None:
                t *= 10
            else:
                with context():
                    t *= 10
            cells.append("ok")
        except RuntimeError as error:
            cells.append("RuntimeError")
            message = f"{type(error).__name__}: {error}"
            if message not in messages:
                messages[message] = name
    print(f"| {name} | " + " | ".join(cells) + " |")
for message, name in messages.items():
    print(f"message for {name}:", message)
