"""to(device) and cpu() return the very tensor they were called on when nothing has to move; copy=True always copies."""
# device-dependent: on a GPU, x.cpu() has to copy x into host memory; on the CPU it has nothing to do
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.tensor([1.0, 2.0, 3.0], device=device)

print("x.device.type:", x.device.type)
print("x.to(device) is x:", x.to(device) is x)
print("x.cpu() is x:", x.cpu() is x)
print('x.to("cpu") is x:', x.to("cpu") is x)
print("x.to(device, copy=True) is x:", x.to(device, copy=True) is x)
