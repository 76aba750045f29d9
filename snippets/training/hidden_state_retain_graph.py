"""With retain_graph=True every backward() walks back through all earlier batches again."""
import torch

rng = torch.manual_seed(0)
cell = torch.nn.RNNCell(2, 3)
batches = torch.randn(4, 5, 1, 2)
reached = {"retain_graph": 0, "detach": 0}  # hidden states a backward() computed a gradient for


def counter(key):
    def hook(grad):
        reached[key] += 1
    return hook


def run_batch(hidden, batch, key):
    for step in batch:
        hidden = cell(step, hidden)
        handle = hidden.register_hook(counter(key))
    return hidden


hidden_retained = torch.zeros(1, 3)
hidden_detached = torch.zeros(1, 3)
print("time steps each backward() went through:")
print("| batch | retain_graph=True | detach() |")
print("| --- | --- | --- |")
for number, batch in enumerate(batches, start=1):
    reached.update(retain_graph=0, detach=0)
    hidden_retained = run_batch(hidden_retained, batch, "retain_graph")
    hidden_retained.pow(2).sum().backward(retain_graph=True)
    hidden_detached = run_batch(hidden_detached.detach(), batch, "detach")
    hidden_detached.pow(2).sum().backward()
    print(f"| {number} | {reached['retain_graph']} | {reached['detach']} |")
