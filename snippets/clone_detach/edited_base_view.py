"""Of a row that iterating a tensor gave (a view made by unbind), whose base was then edited in place while autograd records, detach().clone() copies the values and clone().detach() raises."""
import torch

x = torch.ones(2, 2, requires_grad=True)
b = x * 2
row = list(b)[0]  # iterating b unbinds it: each row is one of several views
b = b.mul_(3)  # the base is edited in place after the rows were taken (mul_ returns b)

print("row.detach().clone():", row.detach().clone())
try:
    copied = row.clone().detach()
except RuntimeError as error:
    print("row.clone().detach() raised:", f"{type(error).__name__}: {error}")
