"""Whether an operation is recorded depends on the innermost grad mode: enable_grad() or set_grad_enabled(True) inside no_grad() records again, and so does inference_mode(False) inside inference_mode()."""
import contextlib

import torch

CONTEXTS = {
    "none": [],
    "no_grad()": [torch.no_grad],
    "inference_mode()": [torch.inference_mode],
    "set_grad_enabled(False)": [lambda: torch.set_grad_enabled(False)],
    "no_grad() > enable_grad()": [torch.no_grad, torch.enable_grad],
    "no_grad() > set_grad_enabled(True)": [torch.no_grad, lambda: torch.set_grad_enabled(True)],
    "enable_grad() > no_grad()": [torch.enable_grad, torch.no_grad],
    "inference_mode() > inference_mode(False)": [torch.inference_mode, lambda: torch.inference_mode(False)],
    "inference_mode() > enable_grad()": [torch.inference_mode, torch.enable_grad],
    "no_grad() > inference_mode(False)": [torch.no_grad, lambda: torch.inference_mode(False)],
}

print("x is a leaf that requires grad; y = x * 2 inside the contexts, outermost first:")
print("| contexts | y.requires_grad | y.grad_fn | y.is_inference() |")
print("| --- | --- | --- | --- |")
for name, contexts in CONTEXTS.items():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with contextlib.ExitStack() as stack:
        for context in contexts:
            stack.enter_context(context())
        y = x * 2
    grad_fn = type(y.grad_fn).__name__ if y.grad_fn is not None else "-"
    print(f"| {name} | {y.requires_grad} | {grad_fn} | {y.is_inference()} |")
