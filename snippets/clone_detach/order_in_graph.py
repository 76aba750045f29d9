"""clone().detach() records a clone in the graph on the way; detach().clone() records nothing."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2

cloned_first = y.clone()  # step 1 of y.clone().detach()
print("after clone(), grad_fn:", cloned_first.grad_fn.name())
print("result of clone().detach(), grad_fn:", cloned_first.detach().grad_fn)

detached_first = y.detach()  # step 1 of y.detach().clone()
print("after detach(), grad_fn:", detached_first.grad_fn)
print("result of detach().clone(), grad_fn:", detached_first.clone().grad_fn)
