"""model.eval() and torch.no_grad() do different things: eval() changes what Dropout and BatchNorm do, no_grad() stops the recording; evaluation needs both."""
import contextlib

import torch

generator = torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8), torch.nn.Dropout(0.5))
batch = torch.randn(16, 8)

print("| model mode, grad mode | output.grad_fn | dropout zeroed some outputs | BatchNorm running_mean changed |")
print("| --- | --- | --- | --- |")
for mode in ["train()", "eval()"]:
    for context in ["recording", "torch.no_grad()"]:
        model = model.train() if mode == "train()" else model.eval()  # both return the model
        before = model[1].running_mean.clone()
        with torch.no_grad() if context != "recording" else contextlib.nullcontext():
            output = model(batch)
        grad_fn = type(output.grad_fn).__name__ if output.grad_fn is not None else "-"
        zeroed = bool((output == 0).any())
        changed = not torch.equal(before, model[1].running_mean)
        print(f"| model.{mode}, {context} | {grad_fn} | {zeroed} | {changed} |")
