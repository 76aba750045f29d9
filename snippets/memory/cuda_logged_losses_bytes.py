"""Expected on a GPU: a list of 3 losses holds 3 saved intermediates, detached losses only their scalars; without a GPU it skips."""
# device-dependent: torch.cuda.memory_allocated() counts CUDA memory, so only a GPU run can measure
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
if device == "cpu":
    print("CUDA measurement: skipped, torch.cuda.memory_allocated() needs a GPU and this run has none")
else:
    w = torch.ones(1024, 1024, device=device, requires_grad=True)  # 4 MiB of float32

    def bytes_held(keep):
        before = torch.cuda.memory_allocated()
        logged = []
        for step in range(3):
            loss = (w * (step + 1.0)).pow(2).sum()  # pow() saves its 4 MiB input
            logged.append(keep(loss))
        del loss
        return torch.cuda.memory_allocated() - before

    print("w.nbytes:", w.nbytes)
    print("bytes held, logging loss:", bytes_held(lambda loss: loss))
    print("bytes held, logging loss.detach():", bytes_held(lambda loss: loss.detach()))
    print("bytes held, logging loss.item():", bytes_held(lambda loss: loss.item()))
