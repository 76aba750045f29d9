"""apply_(), map_() and map2_() write in place without moving the version counter: through the detached alias PyTorch suggests, an edit of a value the graph saved goes unnoticed and backward() returns the gradient of the edited values."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    x.apply_(lambda value: value * 10)
    print("x.apply_(...) -> ran")
except RuntimeError as error:
    print("x.apply_(...) ->", f"{type(error).__name__}: {error}")

loss = (x * x).sum()  # mul saves x: the gradient is 2 * x
edited = x.detach().apply_(lambda value: 10.0)  # the route the message suggests
print("x after x.detach().apply_(...):", x.detach())
print("x._version after x.detach().apply_(...):", x._version)
edited = x.detach().map_(torch.ones(3), lambda value, other: value + other)
print("x._version after x.detach().map_(...):", x._version)
edited = x.detach().map2_(torch.ones(3), torch.ones(3), lambda value, a, b: value - a - b)
print("x._version after x.detach().map2_(...):", x._version)
loss.backward()  # runs: no counter moved
print("x.grad:", x.grad)

fresh = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(fresh * fresh).sum().backward()
print("x.grad without the edits:", fresh.grad)
