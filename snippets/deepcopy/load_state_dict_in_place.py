"""load_state_dict() copies values into the existing parameters: same objects, same memory."""
import torch

online = torch.nn.Linear(2, 1)
target = torch.nn.Linear(2, 1)
weight_before = target.weight
pointer_before = target.weight.data_ptr()

outcome = target.load_state_dict(online.state_dict())  # a hard update of a target network
print("load_state_dict:", outcome)
print("weights equal:", torch.equal(target.weight, online.weight))
print("same Parameter object as before:", target.weight is weight_before)
print("same memory as before:", target.weight.data_ptr() == pointer_before)
print("shares memory with online:", target.weight.data_ptr() == online.weight.data_ptr())
