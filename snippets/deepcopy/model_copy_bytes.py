"""copy.deepcopy(model) holds as many parameter and buffer bytes again, in memory of its own: nothing is shared with the original."""
import copy

import torch

model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.BatchNorm1d(256), torch.nn.Linear(256, 10))
duplicate = copy.deepcopy(model)


def storages(module):
    tensors = list(module.parameters()) + list(module.buffers())
    return {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}


print("bytes of the model's parameters and buffers:", sum(storages(model).values()))
print("bytes of the copy's parameters and buffers:", sum(storages(duplicate).values()))
print("storages shared by the two:", len(storages(model).keys() & storages(duplicate).keys()))
