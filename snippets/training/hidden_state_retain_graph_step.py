"""retain_graph=True with an optimizer step in between: the old graph saved the weights the step changed."""
import torch

rng = torch.manual_seed(0)
cell = torch.nn.RNNCell(2, 3)
optimizer = torch.optim.SGD(cell.parameters(), lr=0.1)
batches = torch.randn(2, 5, 1, 2)


def run_batch(hidden, batch):
    for step in batch:
        hidden = cell(step, hidden)
    return hidden, hidden.pow(2).sum()


hidden = torch.zeros(1, 3)
hidden, loss = run_batch(hidden, batches[0])
loss.backward(retain_graph=True)
print("weight_hh shape:", tuple(cell.weight_hh.shape))
print("weight_hh version before the step:", cell.weight_hh._version)
optimizer.step()  # updates the weights in place
print("weight_hh version after the step:", cell.weight_hh._version)
hidden, loss = run_batch(hidden, batches[1])
optimizer.zero_grad()
loss.backward(retain_graph=True)  # raises RuntimeError
