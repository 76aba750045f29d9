"""A module holding a non-leaf tensor cannot be deep-copied; load_state_dict() still works."""
import copy

import torch


class Remembering(torch.nn.Linear):
    def forward(self, inputs):
        self.last_output = super().forward(inputs)  # a non-leaf kept on the module
        return self.last_output


model = Remembering(2, 1)
output = model(torch.ones(1, 2))  # also stores a non-leaf in model.last_output

target = Remembering(2, 1)
outcome = target.load_state_dict(model.state_dict())  # parameters and buffers only
print("load_state_dict:", outcome)
print("target weights equal:", torch.equal(target.weight, model.weight))

copy.deepcopy(model)  # raises RuntimeError
