"""Setting loss.requires_grad = True on a loss without a grad_fn makes backward() run, but it starts and ends at the loss: the model's parameters get no gradient."""
import torch

model = torch.nn.Linear(2, 1)
inputs = torch.ones(4, 2)

with torch.no_grad():  # the mistake: the forward pass was not recorded
    loss = model(inputs).pow(2).mean()
loss.requires_grad = True  # the "fix" that silences the error
loss.backward()
print("loss.is_leaf:", loss.is_leaf, "loss.grad_fn:", loss.grad_fn)
print("model.weight.grad after loss.requires_grad = True:", model.weight.grad)

loss = model(inputs).pow(2).mean()  # the fix: a recorded forward pass
loss.backward()
print("loss.grad_fn:", type(loss.grad_fn).__name__)
print("model.weight.grad after a recorded forward pass is None:", model.weight.grad is None)
