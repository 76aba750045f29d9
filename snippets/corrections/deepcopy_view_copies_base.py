"""copy.deepcopy() of a view copies the view's whole storage; clone() copies only its elements."""
import copy

import torch

base = torch.zeros(1000)
first_two = base[:2]  # a view: 2 elements of a 1000-element storage

print("view storage bytes:", first_two.untyped_storage().nbytes())
print("deepcopy storage bytes:", copy.deepcopy(first_two).untyped_storage().nbytes())
print("clone storage bytes:", first_two.clone().untyped_storage().nbytes())
