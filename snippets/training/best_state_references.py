"""A "best" state_dict kept without copying follows training; a deep copy stays as it was."""
import copy

import torch

rng = torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
inputs, targets = torch.randn(8, 2), torch.randn(8, 1)


def train_step():
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    optimizer.step()


train_step()
best_model = model.state_dict()  # references to the live tensors
best_optimizer = optimizer.state_dict()
snapshot_model = copy.deepcopy(model.state_dict())  # values as of now
snapshot_optimizer = copy.deepcopy(optimizer.state_dict())
weight_at_best = model.weight.detach().clone()

optimizer.param_groups[0]["lr"] = 0.01  # lowered, as a learning-rate scheduler would
train_step()
train_step()
live_momentum = optimizer.state[model.weight]["momentum_buffer"]
print("kept state_dict weight equals the weight at best:", torch.equal(best_model["weight"], weight_at_best))
print("kept state_dict weight equals the current weight:", torch.equal(best_model["weight"], model.weight))
print("kept optimizer state is the live momentum buffer:", best_optimizer["state"][0]["momentum_buffer"] is live_momentum)
print("kept optimizer learning rate:", best_optimizer["param_groups"][0]["lr"])
print("current learning rate:", optimizer.param_groups[0]["lr"])
print("deep-copied weight equals the weight at best:", torch.equal(snapshot_model["weight"], weight_at_best))
print("deep-copied momentum is the live buffer:", snapshot_optimizer["state"][0]["momentum_buffer"] is live_momentum)
