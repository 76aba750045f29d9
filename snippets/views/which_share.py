"""Which operations on a tensor return a view that shares its memory, and which return a copy."""
import torch


def storage(t):
    return t.untyped_storage().data_ptr()


OPERATIONS = {
    "x.view(3, 2)": lambda x: x.view(3, 2),
    "x.reshape(3, 2)": lambda x: x.reshape(3, 2),
    "x.flatten()": lambda x: x.flatten(),
    "x.t()": lambda x: x.t(),
    "x.permute(1, 0)": lambda x: x.permute(1, 0),
    "x.unsqueeze(0)": lambda x: x.unsqueeze(0),
    "x[0]": lambda x: x[0],
    "x[:, 1:]": lambda x: x[:, 1:],
    "x[:, 0]": lambda x: x[:, 0],
    "x.narrow(1, 0, 2)": lambda x: x.narrow(1, 0, 2),
    "x.expand(2, 2, 3)": lambda x: x.expand(2, 2, 3),
    "x.diagonal()": lambda x: x.diagonal(),
    "x.split(1)[1]": lambda x: x.split(1)[1],
    "x.detach()": lambda x: x.detach(),
    "x[[0, 1]]": lambda x: x[[0, 1]],
    "x[x > 2]": lambda x: x[x > 2],
    "x.t().reshape(6)": lambda x: x.t().reshape(6),
    "x.t().flatten()": lambda x: x.t().flatten(),
    "x.t().contiguous()": lambda x: x.t().contiguous(),
    "x.contiguous()": lambda x: x.contiguous(),
}

print("x = torch.tensor([[0., 1., 2.], [3., 4., 5.]]), shape (2, 3), stride (3, 1):")
print("| operation | result is x | shares x's storage | _base is x | is_contiguous() | stride | grad_fn |")
print("|---|---|---|---|---|---|---|")
for name, operation in OPERATIONS.items():
    x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
    result = operation(x)
    yes_no = {True: "yes", False: "no"}
    cells = [name, yes_no[result is x], yes_no[storage(result) == storage(x)],
             yes_no[result._base is x], str(result.is_contiguous()), str(tuple(result.stride())),
             type(result.grad_fn).__name__ if result.grad_fn is not None else "-"]
    print("| " + " | ".join(cells) + " |")
