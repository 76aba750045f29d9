"""A fused optimizer updates the weights without moving their version counter, so the check that stops a second backward() through a graph that saved them does not fire; nor does it under CPU autocast, where the graph saved bfloat16 copies of the weights."""
import contextlib

import torch

optimizers = {
    "SGD": lambda parameters: torch.optim.SGD(parameters, lr=0.1),
    "SGD(fused=True)": lambda parameters: torch.optim.SGD(parameters, lr=0.1, fused=True),
    "Adam(fused=True)": lambda parameters: torch.optim.Adam(parameters, lr=0.1, fused=True),
    "SGD under CPU autocast": lambda parameters: torch.optim.SGD(parameters, lr=0.1),
}
# the forward passes of the last one run in bfloat16 under autocast; the others as they are
forward_context = {"SGD under CPU autocast": lambda: torch.autocast("cpu", dtype=torch.bfloat16)}


def run_batch(cell, hidden, batch):
    for step in batch:
        hidden = cell(step, hidden)
    return hidden, hidden.pow(2).sum()


for name, make in optimizers.items():
    generator = torch.manual_seed(0)  # the same weights and batches for each optimizer
    cell = torch.nn.RNNCell(2, 3)
    optimizer = make(cell.parameters())
    batches = torch.randn(2, 5, 1, 2)
    context = forward_context.get(name, contextlib.nullcontext)
    with context():
        hidden, loss = run_batch(cell, torch.zeros(1, 3), batches[0])
    loss.backward(retain_graph=True)
    before = cell.weight_hh.detach().clone()
    version = cell.weight_hh._version
    optimizer.step()  # updates the weights in place
    print(f"{name}, weights changed by the step: {not torch.equal(before, cell.weight_hh)}")
    print(f"{name}, weight_hh version: {version} -> {cell.weight_hh._version}")
    with context():
        hidden, loss = run_batch(cell, hidden, batches[1])
    optimizer.zero_grad()
    try:
        loss.backward(retain_graph=True)
        print(f"{name}, second backward(): ran")
    except RuntimeError as error:
        print(f"{name}, second backward(): RuntimeError: {error}")
