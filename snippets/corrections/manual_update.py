"""Autograd's gradients need no detach(); a gradient written out by hand from w is recorded unless w is detached, and a hand-written update step uses detach() to start a new leaf."""
import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
(w**2).sum().backward()
print("gradient from backward():", w.grad)
(gradient,) = torch.autograd.grad((w**2).sum(), w)
print("gradient from autograd.grad():", gradient)

by_hand = 2 * w  # the derivative of w**2, written out by hand
print("hand-written 2 * w, grad_fn:", type(by_hand.grad_fn).__name__)
print("hand-written 2 * w.detach(), requires_grad:", (2 * w.detach()).requires_grad)

stepped = w - 0.1 * w.grad
print("w - lr * w.grad, grad_fn:", type(stepped.grad_fn).__name__)
print("w - lr * w.grad, is_leaf:", stepped.is_leaf)

restarted = (w - 0.1 * w.grad).detach().requires_grad_()
print("detached step, grad_fn:", restarted.grad_fn)
print("detached step, is_leaf:", restarted.is_leaf)

with torch.no_grad():
    w -= 0.1 * w.grad
print("no_grad() step, is_leaf:", w.is_leaf)
print("same values either way:", torch.equal(restarted, w.detach()))
