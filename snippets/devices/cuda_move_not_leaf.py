"""Expected on a GPU: a CPU tensor made with requires_grad=True and then moved with .cuda() or .to("cuda") is not a leaf, and its .grad stays None; without a GPU it skips."""
# device-dependent: only a GPU run can move a tensor to CUDA
import warnings

import torch

if not torch.cuda.is_available():
    print("CUDA check: skipped, moving a tensor to CUDA needs a GPU and this run has none")
else:
    WAYS = {
        "torch.randn(3, requires_grad=True, device='cpu').cuda()":
            lambda: torch.randn(3, requires_grad=True, device="cpu").cuda(),
        "torch.randn(3, requires_grad=True, device='cpu').to('cuda')":
            lambda: torch.randn(3, requires_grad=True, device="cpu").to("cuda"),
        "torch.randn(3, device='cuda', requires_grad=True)":
            lambda: torch.randn(3, device="cuda", requires_grad=True),
    }
    for name, make in WAYS.items():
        w = make()
        (w * 2).sum().backward()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grad = w.grad
        print(f"{name}: is_leaf {w.is_leaf}, grad {None if grad is None else grad.tolist()}")
        for warning in caught:  # reading the .grad of a non-leaf warns
            print(f"{name}: reading .grad warns:", f"{warning.category.__name__}: {warning.message}")
