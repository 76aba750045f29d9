"""id() tells two live objects apart, but the id of a temporary can be reused: id(x.detach()) == id(x.detach()) compares two objects that never lived at the same time."""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
detached = x.detach()
print("id(detached) == id(x), both alive:", id(detached) == id(x))
print("id(x.detach()) == id(x.detach()), temporaries:", id(x.detach()) == id(x.detach()))
first, second = x.detach(), x.detach()
print("first is second, both alive:", first is second)
