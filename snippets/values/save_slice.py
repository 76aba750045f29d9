"""torch.save of a slice writes the whole storage the slice is a view of, and loading it brings that storage back; saving a clone() writes only the slice's elements."""
import io

import torch

big = torch.arange(10_000, dtype=torch.float32, device="cpu")  # 40,000 bytes of values
head = big[:10]  # a view: 10 elements of big's storage


def save(value):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    return buffer


print("head.untyped_storage().nbytes():", head.untyped_storage().nbytes())
print("bytes written for head:", save(head).getbuffer().nbytes)
print("bytes written for head.clone():", save(head.clone()).getbuffer().nbytes)
print("bytes written for big:", save(big).getbuffer().nbytes)
print("bytes written for (big, head) in one call:", save((big, head)).getbuffer().nbytes)
loaded = torch.load(io.BytesIO(save(head).getvalue()))
print("loaded:", loaded)
print("loaded.untyped_storage().nbytes():", loaded.untyped_storage().nbytes())
