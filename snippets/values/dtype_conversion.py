"""float() and to(dtype) return the tensor itself when the dtype already matches, and a recorded copy when it changes."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # float32

WAYS = {
    "x.float()": lambda: x.float(),
    "x.to(torch.float32)": lambda: x.to(torch.float32),
    "x.type(torch.float32)": lambda: x.type(torch.float32),
    "x.to(torch.float32, copy=True)": lambda: x.to(torch.float32, copy=True),
    "x.double()": lambda: x.double(),
    "x.to(torch.float64)": lambda: x.to(torch.float64),
    "x.half()": lambda: x.half(),
    "x.to(torch.float64, non_blocking=True)": lambda: x.to(torch.float64, non_blocking=True),
}

print("x is a float32 leaf that requires grad:")
print("| way | result is x | shares x's memory | dtype | grad_fn |")
print("|---|---|---|---|---|")
for name, make in WAYS.items():
    result = make()
    same = "yes" if result is x else "no"
    shares = "yes" if result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr() else "no"
    grad_fn = type(result.grad_fn).__name__ if result.grad_fn is not None else "-"
    print(f"| {name} | {same} | {shares} | {result.dtype} | {grad_fn} |")

back = x.double().float()  # a round trip: a new tensor, two recorded copies
print()
print("x.double().float() is x:", back is x)
print("x.double().float().grad_fn:", type(back.grad_fn).__name__)
print("its next node:", type(back.grad_fn.next_functions[0][0]).__name__)

# To an integer or bool dtype: a new tensor that autograd does not record
for name, convert in {"x.long()": lambda: x.long(), "x.bool()": lambda: x.bool()}.items():
    result = convert()
    print(f"{name} grad_fn:", result.grad_fn)
    print(f"{name} requires_grad:", result.requires_grad)
