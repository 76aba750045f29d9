"""An LSTM's state is a pair (h, c): detaching only h leaves c carrying the previous batch's graph, and the second backward() raises."""
import torch

rng = torch.manual_seed(0)
lstm = torch.nn.LSTM(input_size=2, hidden_size=3)
batches = torch.randn(2, 5, 1, 2)  # 2 batches of 5 time steps

h, c = torch.zeros(1, 1, 3), torch.zeros(1, 1, 3)
output, (h, c) = lstm(batches[0], (h, c))
output.pow(2).sum().backward()
print("batch 1 backward: done")
print("c.grad_fn after batch 1:", type(c.grad_fn).__name__)
try:
    state = (h, c).detach()
except AttributeError as error:
    print("(h, c).detach():", f"{type(error).__name__}: {error}")
output, (h, c) = lstm(batches[1], (h.detach(), c))  # only h detached
output.pow(2).sum().backward()  # raises RuntimeError
