"""Some modules compute differently when nothing is recorded: nn.TransformerEncoder in eval() takes a fast path under no_grad(), which zeroes padded positions that the recorded path fills."""
import warnings

import torch

generator = torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
with warnings.catch_warnings(record=True) as building:  # a note that nested tensors are a prototype
    warnings.simplefilter("always")
    encoder = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=True).eval()
tokens = torch.randn(2, 4, 8)
padding = torch.tensor([[False, False, True, True], [False, False, False, True]])  # True: padding

with warnings.catch_warnings(record=True) as running:
    warnings.simplefilter("always")
    recorded = encoder(tokens, src_key_padding_mask=padding)
    with torch.no_grad():
        fast = encoder(tokens, src_key_padding_mask=padding)
print("eval(), recording: output.grad_fn:", type(recorded.grad_fn).__name__)
print("eval(), recording: padded positions all zero:", bool((recorded[0, 2:] == 0).all()))
print("eval() + no_grad(): padded positions all zero:", bool((fast[0, 2:] == 0).all()))
print("the other positions agree to 1e-5:", torch.allclose(recorded[0, :2], fast[0, :2], atol=1e-5))
for warning in building + running:
    print("warning:", f"{warning.category.__name__}: {warning.message}")
