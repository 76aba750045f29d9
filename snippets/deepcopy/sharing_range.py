"""Which sharing survives copy.deepcopy: one call keeps storages and objects shared for plain tensors, a Parameter used twice and a state_dict; two Parameters over one storage come out apart."""
import copy

import torch


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def tensor_and_view():
    base = torch.zeros(4)
    return [base, base[1:3]]  # a plain tensor and a view of it


class OneParameterTwice(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(2, 2, bias=False)
        self.second = torch.nn.Linear(2, 2, bias=False)
        self.second.weight = self.first.weight  # tied: one Parameter object in two layers


class TwoParametersOneStorage(torch.nn.Module):
    def __init__(self):
        super().__init__()
        memory = torch.zeros(4)
        self.whole = torch.nn.Parameter(memory)
        self.first_half = torch.nn.Parameter(memory[:2])  # another Parameter over the same storage


class TwoBuffersOneStorage(torch.nn.Module):
    def __init__(self):
        super().__init__()
        memory = torch.zeros(4)
        self.register_buffer("whole", memory)
        self.register_buffer("first_half", memory[:2])


rows = ["| what is deep-copied | shared before | shared in the copy |", "| --- | --- | --- |"]


def row(name, before, after):
    yes_no = {True: "yes", False: "no"}
    rows.append(f"| {name} | {yes_no[before]} | {yes_no[after]} |")


pair = tensor_and_view()
copied = copy.deepcopy(pair)
row("[tensor, its view], one call", same_storage(*pair), same_storage(*copied))
row("[tensor, its view], two calls", same_storage(*pair),
    same_storage(copy.deepcopy(pair[0]), copy.deepcopy(pair[1])))

tied = OneParameterTwice()
tied_copy = copy.deepcopy(tied)
row("module: one Parameter in two layers", tied.second.weight is tied.first.weight,
    tied_copy.second.weight is tied_copy.first.weight)

apart = TwoParametersOneStorage()
apart_copy = copy.deepcopy(apart)
row("module: two Parameters over one storage", same_storage(apart.whole, apart.first_half),
    same_storage(apart_copy.whole, apart_copy.first_half))
state = copy.deepcopy(apart.state_dict())
row("state_dict() of that module", same_storage(apart.whole, apart.first_half),
    same_storage(state["whole"], state["first_half"]))

buffers = TwoBuffersOneStorage()
buffers_copy = copy.deepcopy(buffers)
row("module: two buffers over one storage", same_storage(buffers.whole, buffers.first_half),
    same_storage(buffers_copy.whole, buffers_copy.first_half))
print("\n".join(rows))
