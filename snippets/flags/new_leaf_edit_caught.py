"""An in-place edit of x after x.detach().requires_grad_() has been saved for backward makes that backward fail."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
leaf = x.detach().requires_grad_()
loss = (leaf * leaf).sum()  # mul saves leaf for the backward pass

with torch.no_grad():
    x += 1  # in place: bumps the version counter that leaf shares
print("leaf._version:", leaf._version)
loss.backward()  # raises RuntimeError
