"""clone() records nothing when its source does not require grad, or when grad mode is off."""
import torch

data = torch.tensor([1.0, 2.0, 3.0])  # requires_grad=False
copied = data.clone()
print("copied.grad_fn:", copied.grad_fn)
print("copied.requires_grad:", copied.requires_grad)
print("copied.is_leaf:", copied.is_leaf)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    snapshot = x.clone()
print("snapshot.grad_fn:", snapshot.grad_fn)
print("snapshot.requires_grad:", snapshot.requires_grad)
