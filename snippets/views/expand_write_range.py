"""In-place writes into an expand()ed tensor: add_, copy_ and a slice assignment raise, because several elements are one memory location; fill_, zero_ and an integer index write into the one row there is."""
import torch

WRITES = {
    "grid.add_(1)": lambda grid: grid.add_(1),
    "grid.copy_(torch.ones(2, 3))": lambda grid: grid.copy_(torch.ones(2, 3)),
    "grid[:] = 5.0": lambda grid: grid.__setitem__(slice(None), 5.0),
    "grid.fill_(1.0)": lambda grid: grid.fill_(1.0),
    "grid.zero_()": lambda grid: grid.zero_(),
    "grid[0] = 5.0": lambda grid: grid.__setitem__(0, 5.0),
}

print("row = torch.arange(3.0); grid = row.expand(2, 3); grid.stride():", torch.arange(3.0).expand(2, 3).stride())
print("| write | outcome | row afterwards |")
print("| --- | --- | --- |")
message = None
for name, write in WRITES.items():
    row = torch.arange(3.0)
    grid = row.expand(2, 3)  # stride 0 along the first dimension: both rows are row's memory
    try:
        written = write(grid)
        outcome = "ok"
    except RuntimeError as error:
        outcome = "RuntimeError"
        message = str(error)
    print(f"| {name} | {outcome} | {row.tolist()} |")
print("RuntimeError:", message)
