"""Expected on a GPU: detach() adds no allocated bytes, clone() adds a full copy, freed when its last name goes; without a GPU it skips."""
# device-dependent: torch.cuda.memory_allocated() counts CUDA memory, so only a GPU run can measure
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
if device == "cpu":
    print("CUDA measurement: skipped, torch.cuda.memory_allocated() needs a GPU and this run has none")
else:
    x = torch.zeros(1024, 1024, device=device, requires_grad=True)  # 4 MiB of float32
    print("x.nbytes:", x.nbytes)
    before = torch.cuda.memory_allocated()
    detached = x.detach()
    print("bytes added by detach():", torch.cuda.memory_allocated() - before)
    copied = x.detach().clone()
    print("bytes added by detach().clone():", torch.cuda.memory_allocated() - before)
    del copied
    print("bytes added after del copied:", torch.cuda.memory_allocated() - before)
