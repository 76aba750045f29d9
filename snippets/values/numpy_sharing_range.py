"""torch.from_numpy shares the array's memory for every array it accepts; torch.as_tensor shares unless a dtype change forces a copy; torch.tensor copies; all three refuse an array with a negative stride."""
import warnings

import numpy as np
import torch


def arrays():
    read_only = np.arange(4.0)
    read_only.flags.writeable = False
    return {
        "float64, contiguous": np.arange(4.0),
        "float32, contiguous": np.arange(4.0, dtype=np.float32),
        "every second element (a[::2])": np.arange(8.0)[::2],
        "reversed (a[::-1])": np.arange(4.0)[::-1],
        "reversed, then copied (a[::-1].copy())": np.arange(4.0)[::-1].copy(),
        "read-only": read_only,
    }


CONVERSIONS = {
    "torch.from_numpy(a)": lambda a: torch.from_numpy(a),
    "torch.as_tensor(a)": lambda a: torch.as_tensor(a, device="cpu"),
    "torch.as_tensor(a, dtype=torch.float32)": lambda a: torch.as_tensor(a, dtype=torch.float32, device="cpu"),
    "torch.tensor(a)": lambda a: torch.tensor(a, device="cpu"),
}

print("| array a | " + " | ".join(CONVERSIONS) + " |")
print("|---|" + "---|" * len(CONVERSIONS))
messages = {}  # each warning or error message, and the first array that gave it
for name in arrays():
    cells = []
    for conversion in CONVERSIONS.values():
        a = arrays()[name]
        try:
            with warnings.catch_warnings(record=True) as caught:  # a read-only array warns
                warnings.simplefilter("always")
                t = conversion(a)
            cell = "shares" if np.shares_memory(t.numpy(), a) else "copies"
        except ValueError as error:
            message = f"{type(error).__name__}: {error}"
            if message not in messages:
                messages[message] = name
            cell = "ValueError"
        for warning in caught:
            message = f"{warning.category.__name__}: {warning.message}"
            if message not in messages:
                messages[message] = name
        cells.append(cell)
    print(f"| {name} | " + " | ".join(cells) + " |")
for message, name in messages.items():
    print(f"message for {name}:", message)
