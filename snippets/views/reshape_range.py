"""reshape() copies exactly when view() raises: when no strides over the input's memory can give the new shape, whether or not the input is contiguous."""
import torch

base = torch.arange(24.0).reshape(4, 6)
INPUTS = {
    "contiguous (4, 6)": base,
    "transposed, base.t()": base.t(),
    "columns 0-3, base[:, :4]": base[:, :4],
    "every second row, base[::2]": base[::2],
    "expanded, base[0].expand(3, 6)": base[0].expand(3, 6),
}
SHAPES = {
    "contiguous (4, 6)": [(24,), (2, 2, 6), (6, 4)],
    "transposed, base.t()": [(24,), (3, 2, 4), (4, 6)],
    "columns 0-3, base[:, :4]": [(16,), (4, 2, 2), (2, 8)],
    "every second row, base[::2]": [(12,), (2, 3, 2), (2, 6, 1)],
    "expanded, base[0].expand(3, 6)": [(18,), (3, 2, 3), (3, 6, 1)],
}


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


print("| input | is_contiguous() | new shape | view() | reshape() shares the input's memory |")
print("| --- | --- | --- | --- | --- |")
for name, tensor in INPUTS.items():
    for shape in SHAPES[name]:
        try:
            viewed = tensor.view(shape)
            view = "works"
        except RuntimeError:
            view = "raises"
        reshaped = tensor.reshape(shape)
        print(f"| {name} | {tensor.is_contiguous()} | {shape} | {view} "
              f"| {'yes' if shares(reshaped, tensor) else 'no'} |")
