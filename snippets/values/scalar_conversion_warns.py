"""float() of a tensor that requires grad warns while autograd records, once per process unless torch.set_warn_always(True); loss.item(), int(loss), float(loss.detach()) and float(loss) under no_grad() do not warn."""
import warnings

import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()  # a tensor that requires grad, as a loss does


def convert(name, conversion):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = conversion()
    print(f"{name} -> {value!r}, warnings: {len(caught)}")
    for warning in caught:
        print(f"{name} warns:", f"{warning.category.__name__}: {warning.message}")


convert("float(loss)", lambda: float(loss))
convert("float(loss), a second time", lambda: float(loss))
warn_always = torch.is_warn_always_enabled()
torch.set_warn_always(True)  # torch's warnings given once per process: every time from here
convert("float(loss) with set_warn_always(True)", lambda: float(loss))
convert("loss.item()", lambda: loss.item())
convert("int(loss)", lambda: int(loss))
convert("float(loss.detach())", lambda: float(loss.detach()))


def float_under_no_grad():
    with torch.no_grad():
        return float(loss)


convert("float(loss) under no_grad()", float_under_no_grad)
torch.set_warn_always(warn_always)
