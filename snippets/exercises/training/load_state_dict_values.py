"""Exercise: one model loads another's state_dict, then the first model is edited in place."""
import torch

rng = torch.manual_seed(0)
source = torch.nn.Linear(2, 1)
target = torch.nn.Linear(2, 1)
result = target.load_state_dict(source.state_dict())
print("target.weight equals source.weight after loading:", torch.equal(target.weight, source.weight))
with torch.no_grad():
    source.weight[:] = 7.0
print("source.weight:", source.weight.detach())
print("target.weight:", target.weight.detach())
print("target.weight equals source.weight:", torch.equal(target.weight, source.weight))
