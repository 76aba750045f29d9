"""An in-place edit of batch.to(device) reaches the original batch exactly when nothing had to move."""
# device-dependent: moving to a GPU copies, so the edit stays on the copy; on the CPU there is no copy
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
batch = torch.tensor([1.0, 2.0, 3.0], device="cpu")  # as a DataLoader hands it over

moved = batch.to(device)
moved[0] = 100.0  # for example, a normalisation written in place
print("moved is batch:", moved is batch)
print("batch after editing moved:", batch)
