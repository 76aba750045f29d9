"""to(device) and cpu() return the very tensor they were called on when nothing has to move; copy=True always copies, and so do a device written with its index (cpu:0 for a CPU tensor) and a memory format the tensor does not have."""
# device-dependent: on a GPU, x.cpu() has to copy x into host memory; on the CPU it has nothing to do
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.tensor([1.0, 2.0, 3.0], device=device)

print("x.device.type:", x.device.type)
print("x.to(device) is x:", x.to(device) is x)
print("x.cpu() is x:", x.cpu() is x)
print('x.to("cpu") is x:', x.to("cpu") is x)
print("x.to(device, copy=True) is x:", x.to(device, copy=True) is x)

# The device written with its index: a CPU tensor's device has none, so "cpu:0" is another device
indexed = x.to(device + ":0")
print('x.to(device + ":0") is x:', indexed is x)
print('x.to(device + ":0") shares memory with x:', indexed.data_ptr() == x.data_ptr())
# A memory format the tensor does not have is a change too, even with nothing to move
grid = torch.ones(1, 2, 2, 2, device=device)
print("grid.to(device, memory_format=torch.channels_last) is grid:",
      grid.to(device, memory_format=torch.channels_last) is grid)
