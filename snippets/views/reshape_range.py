"""reshape() copies exactly when view() raises: when no strides over the input's memory can give the new shape, whether or not the input is contiguous."""
import torch

base = torch.arange(24.0).reshape(4, 6)
INPUTS = {  # each input, and the new shapes asked of it
    "base": (base, [(24,), (2, 2, 6), (6, 4)]),
    "base.t()": (base.t(), [(24,), (3, 2, 4), (4, 6)]),
    "base[:, :4]": (base[:, :4], [(16,), (4, 2, 2), (2, 8)]),
    "base[::2]": (base[::2], [(12,), (2, 3, 2), (2, 6, 1)]),
    "base[0].expand(3, 6)": (base[0].expand(3, 6), [(18,), (3, 2, 3), (3, 6, 1)]),
}


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


print("base = torch.arange(24.0).reshape(4, 6)")
print("| input and new shape | input is_contiguous() | view() | reshape() shares the input's memory |")
print("| --- | --- | --- | --- |")
messages = {}  # each message of view(), and the first input that gave it
for name, (tensor, shapes) in INPUTS.items():
    for shape in shapes:
        try:
            viewed = tensor.view(shape)
            view = "works"
        except RuntimeError as error:
            message = f"{type(error).__name__}: {error}"
            if message not in messages:
                messages[message] = f"{name} to {shape}"
            view = "raises"
        reshaped = tensor.reshape(shape)
        print(f"| {name} to {shape} | {tensor.is_contiguous()} | {view} "
              f"| {'yes' if shares(reshaped, tensor) else 'no'} |")
for message, name in messages.items():
    print(f"view() of {name}:", message)
