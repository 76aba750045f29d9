"""detach() drops a dual tensor's forward-mode tangent, as it drops the backward history."""
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([1.0, 2.0, 3.0])
tangent = torch.tensor([1.0, 0.0, 0.0])  # the direction: change the first element only

with fwAD.dual_level():
    x = fwAD.make_dual(primal, tangent)
    detached = x.detach()
    print("x tangent:", fwAD.unpack_dual(x).tangent)
    print("detached primal:", fwAD.unpack_dual(detached).primal)
    print("detached tangent:", fwAD.unpack_dual(detached).tangent)
    both_paths = x * 2 + x.detach() * 3
    print("tangent of x * 2 + x.detach() * 3:", fwAD.unpack_dual(both_paths).tangent)
