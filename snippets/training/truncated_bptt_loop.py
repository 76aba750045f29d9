"""Truncated BPTT: detach the hidden state at each batch boundary and every batch trains alone."""
import torch

rng = torch.manual_seed(0)
cell = torch.nn.RNNCell(2, 3)
optimizer = torch.optim.SGD(cell.parameters(), lr=0.1)
batches = torch.randn(4, 5, 1, 2)

hidden = torch.zeros(1, 3)
for number, batch in enumerate(batches, start=1):
    hidden = hidden.detach()  # keep the values, drop the history of earlier batches
    for step in batch:
        hidden = cell(step, hidden)
    loss = hidden.pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"batch {number} loss:", round(loss.item(), 4))
print("hidden.requires_grad:", hidden.requires_grad)
