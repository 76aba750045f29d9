"""nn.ReLU(inplace=True) after a sigmoid overwrites the output the sigmoid saved, and backward() raises; nn.ReLU() or out.clone() first avoids it."""
import torch

model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Sigmoid(), torch.nn.ReLU())
x = torch.ones(2, 3)
model(x).sum().backward()
print("with nn.ReLU(): backward() ran, weight.grad is set:", model[0].weight.grad is not None)

model[2] = torch.nn.ReLU(inplace=True)
model(x).sum().backward()  # raises RuntimeError
