"""backward() on a loss without a grad_fn raises "element 0 of tensors does not require grad": here, the loss was computed from nothing that requires grad, under no_grad() or inference_mode(), through detach(), item() or NumPy, or from a model whose parameters are all frozen."""
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
frozen = torch.nn.Linear(2, 1).requires_grad_(False)


def under_no_grad():
    with torch.no_grad():
        return (w * 3).sum()


def under_inference_mode():
    with torch.inference_mode():
        return (w * 3).sum()


LOSSES = {
    "(w * 3).sum(), w requires grad": lambda: (w * 3).sum(),
    "from a tensor that needs no grad": lambda: (torch.tensor([1.0, 2.0]) * 3).sum(),
    "computed under torch.no_grad()": under_no_grad,
    "computed under torch.inference_mode()": under_inference_mode,
    "through w.detach()": lambda: (w.detach() * 3).sum(),
    "through .item() and torch.tensor()": lambda: torch.tensor((w * 3).sum().item()),
    "through .numpy() and torch.from_numpy()": lambda: torch.from_numpy((w * 3).detach().numpy()).sum(),
    "a frozen model's output": lambda: frozen(w.detach()).sum(),
}

print("| loss | loss.requires_grad | loss.grad_fn | loss.backward() |")
print("| --- | --- | --- | --- |")
messages = set()
for name, make in LOSSES.items():
    loss = make()
    grad_fn = type(loss.grad_fn).__name__ if loss.grad_fn is not None else "None"
    try:
        loss.backward()
        outcome = "ran"
    except RuntimeError as error:
        outcome = type(error).__name__
        messages.add(f"{type(error).__name__}: {error}")
    print(f"| {name} | {loss.requires_grad} | {grad_fn} | {outcome} |")
for message in sorted(messages):
    print("message:", message)
