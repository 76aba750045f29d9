"""detach().clone() and clone().detach() give the same tensor; clone() first records a node."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
results = {"detach().clone()": x.detach().clone(), "clone().detach()": x.clone().detach()}

for order, result in results.items():
    shares = result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{order}: requires_grad={result.requires_grad} is_leaf={result.is_leaf} "
          f"shares storage with x={shares}")
print("equal:", torch.equal(*results.values()))
print("x.clone().grad_fn:", x.clone().grad_fn.name())
print("x.detach().grad_fn:", x.detach().grad_fn)
