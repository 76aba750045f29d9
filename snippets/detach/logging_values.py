"""For logging, keep loss.detach() (or loss.item()): the values stay, the graph goes."""
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
logged = []
for step in range(3):
    loss = (w * (step + 1)).sum()
    logged.append(loss.detach())

print("logged:", torch.stack(logged))
print("logged values with a grad_fn:", sum(value.grad_fn is not None for value in logged))
