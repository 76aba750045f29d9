"""Exercise: torch.as_tensor() given a tensor, with and without a change of dtype."""
import torch

x = torch.tensor([1.0, 2.0, 3.0])
same = torch.as_tensor(x)
wider = torch.as_tensor(x, dtype=torch.float64)
print("same is x:", same is x)
print("wider is x:", wider is x)
x[0] = 100.0
print("same after the write:", same)
print("wider after the write:", wider)
