"""An edit through detach() moves the shared version counter, so backward() refuses the stale saved value."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * x).sum()  # saves x for backward: d(loss)/dx = 2 * x

detached = x.detach()
detached[0] = 10.0  # same memory, same counter
print("x._version:", x._version)
loss.backward()  # raises RuntimeError
