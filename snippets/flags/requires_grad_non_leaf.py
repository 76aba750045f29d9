"""requires_grad_(False) is refused on a non-leaf; requires_grad_() on a tensor that needs no grad makes it a leaf that does."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
constant = torch.tensor([1.0, 2.0, 3.0]) * 2  # computed, but from nothing that needs grad
print("constant.is_leaf:", constant.is_leaf)
constant = constant.requires_grad_()  # in place; returns constant itself
print("constant.requires_grad after requires_grad_():", constant.requires_grad)
print("constant.is_leaf after requires_grad_():", constant.is_leaf)

y = x * 2  # a non-leaf: it has a grad_fn
y = y.requires_grad_()  # already True: accepted, nothing changes
print("y.requires_grad_() keeps grad_fn:", type(y.grad_fn).__name__)
frozen = y.requires_grad_(False)  # raises RuntimeError
