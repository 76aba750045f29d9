"""detach() as stop-gradient: a target built from the prediction is held constant."""
import torch

inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0]])


def gradient(stop_gradient):
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    prediction = inputs @ w
    target = prediction * 0.9
    if stop_gradient:
        target = target.detach()
    loss = ((prediction - target) ** 2).mean()
    loss.backward()
    return w.grad


print("w.grad with detach:   ", gradient(stop_gradient=True))
print("w.grad without detach:", gradient(stop_gradient=False))
