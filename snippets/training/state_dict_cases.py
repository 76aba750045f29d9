"""What each state_dict operation holds or keeps: a module's state_dict() holds detached aliases, an optimizer's the live state, and the two load_state_dict methods copy or keep depending on dtype and assign."""
import copy

import torch


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def trained(dtype=torch.float32):
    model = torch.nn.Linear(2, 1, bias=False).to(dtype)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.ones(1, 2, dtype=dtype)).sum().backward()
    optimizer.step()  # creates the momentum buffer
    return model, optimizer


rows = ["| case | is the object | shares its memory | requires_grad |", "| --- | --- | --- | --- |"]


def row(case, entry, owner):
    yes_no = {True: "yes", False: "no"}
    rows.append(f"| {case} | {yes_no[entry is owner]} | {yes_no[same_storage(entry, owner)]} "
                f"| {entry.requires_grad} |")


model, optimizer = trained()
row("model.state_dict()['weight'] vs model.weight", model.state_dict()["weight"], model.weight)
buffer = optimizer.state[model.weight]["momentum_buffer"]
row("optimizer.state_dict()['state'][0]['momentum_buffer'] vs the live buffer",
    optimizer.state_dict()["state"][0]["momentum_buffer"], buffer)

snapshot = copy.deepcopy(optimizer.state_dict())
optimizer.load_state_dict(snapshot)
row("optimizer.load_state_dict(float32 snapshot), float32 model: buffer vs snapshot's",
    optimizer.state[model.weight]["momentum_buffer"], snapshot["state"][0]["momentum_buffer"])

model64, optimizer64 = trained(torch.float64)
optimizer64.load_state_dict(snapshot)  # the float32 snapshot again, for float64 parameters
row("optimizer.load_state_dict(float32 snapshot), float64 model: buffer vs snapshot's",
    optimizer64.state[model64.weight]["momentum_buffer"], snapshot["state"][0]["momentum_buffer"])

weights = copy.deepcopy(model.state_dict())
old_weight = model.weight
result = model.load_state_dict(weights)
row("model.load_state_dict(snapshot): model.weight vs the Parameter before", model.weight, old_weight)
result = model.load_state_dict(weights, assign=True)
row("model.load_state_dict(snapshot, assign=True): model.weight vs the Parameter before",
    model.weight, old_weight)
row("model.load_state_dict(snapshot, assign=True): model.weight vs snapshot's",
    model.weight, weights["weight"])
print("\n".join(rows))
print("after assign=True, the optimizer holds model.weight:",
      any(p is model.weight for p in optimizer.param_groups[0]["params"]))
