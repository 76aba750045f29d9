"""A Linear layer converted to another dtype inside inference mode had inference parameters that still required grad: outside the mode, a backward() through it raised nothing, filled the bias's .grad and left the weight's None, and an optimizer step moved the bias and not the weight; a Conv2d converted the same way raised instead. Converted outside the mode, or loaded with load_state_dict()'s default copy inside it, the parameters were ordinary tensors."""
import torch

model = torch.nn.Linear(2, 2)
with torch.inference_mode():
    model = model.to(torch.float64)  # converted inside the mode (to() returns the model)

print("model.weight.is_inference():", model.weight.is_inference())
print("model.weight.requires_grad:", model.weight.requires_grad)

x = torch.ones(1, 2, dtype=torch.float64)
model(x).sum().backward()  # outside the mode
print("model.weight.grad:", model.weight.grad)
print("model.bias.grad:", model.bias.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
weight, bias = model.weight.detach().clone(), model.bias.detach().clone()
optimizer.step()
print("the step moved the weight:", not torch.equal(weight, model.weight.detach()))
print("the step moved the bias:", not torch.equal(bias, model.bias.detach()))

conv = torch.nn.Conv2d(1, 1, 2)
with torch.inference_mode():
    conv = conv.to(torch.float64)  # a convolution converted the same way
try:
    conv(torch.ones(1, 1, 3, 3, dtype=torch.float64)).sum().backward()
    print("a Conv2d converted inside: backward() ran")
except RuntimeError as error:
    print("a Conv2d converted inside:", f"{type(error).__name__}: {error}")

converted = torch.nn.Linear(2, 2).to(torch.float64)  # converted outside the mode
converted(x).sum().backward()
print("converted outside, weight.grad is None:", converted.weight.grad is None)

loaded = torch.nn.Linear(2, 2)
with torch.inference_mode():
    keys = loaded.load_state_dict(torch.nn.Linear(2, 2).state_dict())  # copies into the parameters
print("loaded inside, weight.is_inference():", loaded.weight.is_inference())
