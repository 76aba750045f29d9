"""Without detach(), the second batch's backward() runs into the first batch's graph, already freed."""
import torch

rng = torch.manual_seed(0)
cell = torch.nn.RNNCell(2, 3)
batches = torch.randn(2, 5, 1, 2)


def run_batch(hidden, batch):
    """Feed one batch through the cell; return the last hidden state and a loss on it."""
    for step in batch:
        hidden = cell(step, hidden)
    return hidden, hidden.pow(2).sum()


hidden = torch.zeros(1, 3)
hidden, loss = run_batch(hidden, batches[0])
loss.backward()  # frees the values batch 1 saved for backward
print("batch 1 backward: done")
hidden, loss = run_batch(hidden, batches[1])  # hidden still carries batch 1's graph
loss.backward()  # raises RuntimeError
