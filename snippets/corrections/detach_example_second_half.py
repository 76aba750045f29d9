"""The second half of the article's detach() example, run on its own, stops at the same error as the first: the backward() it calls starts from a detached value."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
squared = x.pow(2)
attached_sine = squared.sin()  # computed, then not used again
squared_detached = squared.detach()
detached_sine = squared_detached.sin()
print("attached_sine.requires_grad:", attached_sine.requires_grad)
print("detached_sine.requires_grad:", detached_sine.requires_grad)
detached_sine.backward()  # raises RuntimeError
