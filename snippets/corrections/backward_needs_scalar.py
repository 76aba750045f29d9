"""Without an argument, backward() needs a one-element output, and sin(x**2) has three."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = x.pow(2).sin()  # no detach() this time: z is in the graph

print("z.grad_fn:", z.grad_fn.name())
print("z.numel():", z.numel())
z.backward()  # raises RuntimeError
