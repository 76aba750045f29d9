"""Which optimizer trains a deep-copied model: one built on the copy, or one copied together with the model; copy.deepcopy(optimizer) alone holds a third set of parameters."""
import copy

import torch

model = torch.nn.Linear(2, 1, bias=False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.ones(1, 2)).sum().backward()
optimizer.step()  # the optimizer now has momentum state


def holds(opt, parameter):
    return any(p is parameter for group in opt.param_groups for p in group["params"])


def state_of(opt, parameter):
    return "yes" if parameter in opt.state else "no"


copied = copy.deepcopy(model)
ways = {"the original optimizer": optimizer, "copy.deepcopy(optimizer)": copy.deepcopy(optimizer)}
copied_together, optimizer_together = copy.deepcopy((model, optimizer))
new_optimizer = torch.optim.SGD(copied.parameters(), lr=0.1, momentum=0.9)
new_optimizer.load_state_dict(copy.deepcopy(optimizer.state_dict()))
ways["new SGD(copied.parameters()) + load_state_dict"] = new_optimizer

print("| optimizer | holds copied.weight | holds model.weight | has momentum for copied.weight |")
print("| --- | --- | --- | --- |")
for name, opt in ways.items():
    print(f"| {name} | {'yes' if holds(opt, copied.weight) else 'no'} "
          f"| {'yes' if holds(opt, model.weight) else 'no'} | {state_of(opt, copied.weight)} |")
print(f"| copy.deepcopy((model, optimizer)), with its model copy "
      f"| {'yes' if holds(optimizer_together, copied_together.weight) else 'no'} "
      f"| {'yes' if holds(optimizer_together, model.weight) else 'no'} "
      f"| {state_of(optimizer_together, copied_together.weight)} |")
