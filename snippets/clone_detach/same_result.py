"""detach().clone(), clone().detach(), torch.tensor(t) and t.new_tensor(t) give the same tensor."""
import warnings

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2  # a source inside a graph
with warnings.catch_warnings(record=True) as caught:  # the last two warn, printed below
    warnings.simplefilter("always")
    results = {
        "y.detach().clone()": y.detach().clone(),
        "y.clone().detach()": y.clone().detach(),
        "torch.tensor(y)": torch.tensor(y),
        "y.new_tensor(y)": y.new_tensor(y),
    }

print(f"{'':19} {'values':16} {'shares storage':15} {'requires_grad':14} {'is_leaf':8} grad_fn")
rows = set()
for name, result in results.items():
    shares = result.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
    cells = [result.tolist(), shares, result.requires_grad, result.is_leaf, result.grad_fn]
    rows.add(str(cells))
    print(f"{name:19}", " ".join(f"{str(c):{w}}" for c, w in zip(cells, [16, 15, 14, 8, 0])))
print("all four alike:", len(rows) == 1)
for warning in caught:
    print("warning:", f"{warning.category.__name__}: {warning.message}")
