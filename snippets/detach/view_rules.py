"""An in-place edit through a differentiable view rewrites its base's history; an edit through detach() leaves the base's history as it was."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

through_view = x * 1
edited = through_view[1:].mul_(2)  # x * 1 is not a leaf, so it may be edited in place
print("base's grad_fn after an edit through a slice:", type(through_view.grad_fn).__name__)

through_detach = x * 1
edited = through_detach.detach().mul_(2)
print("base's grad_fn after an edit through detach():", type(through_detach.grad_fn).__name__)
