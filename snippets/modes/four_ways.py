"""Four ways to compute y = exp(x * w) without a gradient for x, compared on what autograd records, keeps and counts."""
import torch


def f(x, w):
    return (x * w).exp()  # mul saves an input when the other needs grad; exp saves its output


def plain(x, w):
    return f(x, w), None


def detach(x, w):
    return f(x.detach(), w), lambda: x.detach().add_(1)


def no_grad(x, w):
    with torch.no_grad():
        y = f(x, w)
    def write():
        with torch.no_grad():
            x.add_(1)
    return y, write


def inference_mode(x, w):
    with torch.inference_mode():
        y = f(x, w)
    def write():
        with torch.inference_mode():
            x.add_(1)
    return y, write


def requires_grad_false(x, w):
    x.requires_grad_(False)
    return f(x, w), lambda: x.add_(1)


WAYS = {
    "y = f(x, w)": plain,
    "y = f(x.detach(), w)": detach,
    "with torch.no_grad(): y = f(x, w)": no_grad,
    "with torch.inference_mode(): y = f(x, w)": inference_mode,
    "x.requires_grad_(False); y = f(x, w)": requires_grad_false,
}


messages = {}  # each message, and the first way that gave it


def outcome(name, action):
    try:
        action()
        return "ok"
    except RuntimeError as error:
        message = f"{type(error).__name__}: {error}"
        if message not in messages:
            messages[message] = name
        return type(error).__name__


def row(name, way):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
        y, write = way(x, w)
    grad_fn = type(y.grad_fn).__name__ if y.grad_fn is not None else "-"
    if y.requires_grad:
        y.sum().backward(retain_graph=True)
    reached = ", ".join(n for n, t in [("x", x), ("w", w)] if t.grad is not None) or "none"
    v = torch.ones(3, requires_grad=True)
    later = outcome(name, lambda: (v * y).sum().backward())  # mul must save y for v's gradient
    try:
        y_version = str(y._version)
    except RuntimeError as error:
        message = f"{type(error).__name__}: {error}"
        if message not in messages:
            messages[message] = name
        y_version = "none"
    if write is None:
        counted = "-"
    else:
        before = x._version
        write()
        counted = f"{before} -> {x._version}"
    return [name, grad_fn, str(len(saved)), reached, str(x.requires_grad),
            str(y.is_inference()), later, y_version, counted]


HEADER = ["way", "y.grad_fn", "saved tensors", "gradient reaches", "x.requires_grad after",
          "y.is_inference()", "y in a later graph", "y._version", "write to x: x._version"]
print("x and w are leaves that require grad; f(x, w) = (x * w).exp():")
print("| " + " | ".join(HEADER) + " |")
print("|" + "---|" * len(HEADER))
for name, way in WAYS.items():
    print("| " + " | ".join(row(name, way)) + " |")
for message, name in messages.items():
    print(f"message for {name}:", message)
