"""resize_() and resize_as_() on x.detach(): shrinking keeps x's memory, growing reallocates it; both move x's counter."""
import torch

calls = {
    "resize_(3)": lambda detached: detached.resize_(3),  # same size: a control
    "resize_(2)": lambda detached: detached.resize_(2),
    "resize_(5)": lambda detached: detached.resize_(5),
    "resize_as_(torch.zeros(2))": lambda detached: detached.resize_as_(torch.zeros(2)),
    "resize_as_(torch.zeros(5))": lambda detached: detached.resize_as_(torch.zeros(5)),
}


messages = {}  # the call, and the message of the backward() after it


def run(name, call):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # a fresh x for each call
    loss = (x * x).sum()  # saves x for backward
    address, size = x.untyped_storage().data_ptr(), x.untyped_storage().nbytes()
    detached = call(x.detach())
    moved = x.untyped_storage().data_ptr() != address  # x now reads other memory
    try:
        loss.backward()
        backward = "ran"
    except RuntimeError as error:
        backward = type(error).__name__
        messages[name] = f"{type(error).__name__}: {error}"
    return [str(tuple(detached.shape)), "yes" if moved else "no",
            f"{size} -> {x.untyped_storage().nbytes()}", str(x.tolist()), str(x._version), backward]


header = ["call on x.detach()", "detached shape", "x's data_ptr changed", "x's storage bytes", "x",
          "x._version", "pending backward()"]
rows = [header, ["---"] * len(header)] + [[name] + run(name, call) for name, call in calls.items()]
print("\n".join("| " + " | ".join(row) + " |" for row in rows))  # one print: one block of output
for name, message in messages.items():
    print(f"backward() after {name}:", message)
