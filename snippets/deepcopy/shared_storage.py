"""A tensor and its view, deep-copied in one call, still share storage; in two calls they do not."""
import copy

import torch

base = torch.zeros(4)
middle = base[1:3]  # a view: shares base's storage


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


base_copy, middle_copy = copy.deepcopy([base, middle])  # one call: storage copied once
print("one call, copies share storage:", same_storage(base_copy, middle_copy))
base_copy[1] = 5.0
print("middle_copy after writing to base_copy:", middle_copy)

base_alone, middle_alone = copy.deepcopy(base), copy.deepcopy(middle)  # two calls
print("two calls, copies share storage:", same_storage(base_alone, middle_alone))
base_alone[1] = 5.0
print("middle_alone after writing to base_alone:", middle_alone)
