"""[copy.deepcopy(layer) for _ in range(n)] makes n layers with parameters of their own; [layer] * n is one layer n times."""
import copy

import torch

layer = torch.nn.Linear(4, 4)
repeated = torch.nn.ModuleList([layer] * 3)
copies = torch.nn.ModuleList([copy.deepcopy(layer) for _ in range(3)])


def distinct(modules):
    objects = {id(module) for module in modules}
    parameters = {id(p) for p in modules.parameters()}  # parameters() lists each tensor once
    return f"{len(objects)} layer object(s), {len(parameters)} parameter tensor(s)"


print("[layer] * 3:", distinct(repeated))
print("[copy.deepcopy(layer) for _ in range(3)]:", distinct(copies))
print("each deep copy starts with layer's weight:", all(torch.equal(c.weight, layer.weight) for c in copies))
with torch.no_grad():
    repeated[0].weight[:] = 1.0
print("[layer] * 3, after filling the first one's weight, the last one's weight sum:", repeated[2].weight.sum().item())
with torch.no_grad():
    copies[0].weight[:] = 1.0
print("deep copies, after filling the first one's weight, the last one equals it:",
      torch.equal(copies[2].weight, copies[0].weight))
