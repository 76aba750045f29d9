"""BatchNorm's running statistics are buffers: in state_dict(), but not in parameters()."""
import torch

rng = torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
print("parameters:", [name for name, _ in model.named_parameters()])
print("buffers:", [name for name, _ in model.named_buffers()])
print("state_dict keys:", list(model.state_dict()))
print("running_mean requires grad:", model[1].running_mean.requires_grad)

output = model(torch.full((4, 2), 5.0))  # a forward pass in training mode updates the buffers
print("running_mean after one training forward:", model[1].running_mean)
