"""A deep-copied target network stays put while the online network trains, until you update it."""
import copy

import torch

online = torch.nn.Linear(2, 1)
target = copy.deepcopy(online).requires_grad_(False)  # a frozen, independent copy
optimizer = torch.optim.SGD(online.parameters(), lr=0.1)

loss = online(torch.ones(1, 2)).sum()
loss.backward()
optimizer.step()  # moves online's weights only
print("target equals online after a step:", torch.equal(target.weight, online.weight))
gap = (online.weight - target.weight).abs().max().item()
print("largest gap before the update:", round(gap, 4))

with torch.no_grad():  # soft update: move the target halfway to online
    for target_param, online_param in zip(target.parameters(), online.parameters()):
        target_param[...] = torch.lerp(target_param, online_param, 0.5)
gap = (online.weight - target.weight).abs().max().item()
print("largest gap after the update:", round(gap, 4))
