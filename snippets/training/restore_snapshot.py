"""Restoring: model.load_state_dict() copies in place; optimizer.load_state_dict() keeps the snapshot's tensors."""
import copy

import torch

rng = torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
inputs, targets = torch.randn(8, 2), torch.randn(8, 1)


def train_step():
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(inputs), targets).backward()
    optimizer.step()


train_step()
snapshot_model = copy.deepcopy(model.state_dict())
snapshot_optimizer = copy.deepcopy(optimizer.state_dict())
saved_weight = snapshot_model["weight"].clone()
saved_momentum = snapshot_optimizer["state"][0]["momentum_buffer"].clone()
train_step()

weight_object = model.weight
print("model.load_state_dict:", model.load_state_dict(snapshot_model))
optimizer.load_state_dict(snapshot_optimizer)
live_momentum = optimizer.state[model.weight]["momentum_buffer"]
print("weight restored:", torch.equal(model.weight, saved_weight))
print("model.weight is the same Parameter:", model.weight is weight_object)
print("model.weight shares memory with the snapshot:", model.weight.data_ptr() == snapshot_model["weight"].data_ptr())
print("optimizer's momentum buffer is the snapshot's tensor:", live_momentum is snapshot_optimizer["state"][0]["momentum_buffer"])

train_step()
print("after a step, snapshot weight unchanged:", torch.equal(snapshot_model["weight"], saved_weight))
print("after a step, snapshot momentum unchanged:", torch.equal(snapshot_optimizer["state"][0]["momentum_buffer"], saved_momentum))

optimizer.load_state_dict(copy.deepcopy(snapshot_optimizer))  # restore from a copy of the snapshot
print("loaded from a deep copy, momentum buffer is the snapshot's tensor:",
      optimizer.state[model.weight]["momentum_buffer"] is snapshot_optimizer["state"][0]["momentum_buffer"])
