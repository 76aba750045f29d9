"""A layer and its input must share a dtype and a device: a float64 batch raises in a float32 nn.Linear, an addition of a tensor in CPU memory and one on the meta device raises (not for a 0-dimensional CPU tensor), and converting the batch to the weight's dtype and device first works."""
# device-dependent: in the GPU pass the layer is made on CUDA, and the batches stay in CPU memory
import torch

layer = torch.nn.Linear(3, 1)  # float32, on the default device
print("layer.weight:", layer.weight.dtype, layer.weight.device)
batches = {
    "float32 batch in CPU memory": torch.ones(2, 3, device="cpu"),
    "float64 batch in CPU memory": torch.ones(2, 3, dtype=torch.float64, device="cpu"),
}
for name, batch in batches.items():
    try:
        out = layer(batch)
        print(f"layer({name}): ok, out.dtype {out.dtype}")
    except RuntimeError as error:
        print(f"layer({name}):", f"{type(error).__name__}: {error}")

batch = batches["float64 batch in CPU memory"]
out = layer(batch.to(layer.weight.device, layer.weight.dtype))
print("layer(batch.to(weight's device, weight's dtype)): ok, out.dtype", out.dtype)
try:
    total = torch.ones(2, device="cpu") + torch.ones(2, device="meta")
except RuntimeError as error:
    print("CPU tensor + meta tensor:", f"{type(error).__name__}: {error}")
# A 0-dimensional CPU tensor is the exception: it takes part as a number would
total = torch.tensor(2.0) + torch.ones(2, device="meta")
print("0-dimensional CPU tensor + meta tensor: ok, on", total.device)
