"""In-place value edits on a detached sparse tensor raise no error; zero_, copy_, add_ and mul_ leave the original's values alone, while div_, neg_ and an edit of _values() change them. The same edits through s.data and copy.copy(s) are tried too."""
import copy

import torch


def sparse(values):
    indices = torch.tensor([[0, 2]])  # entries at positions 0 and 2 of a 3-element vector
    return torch.sparse_coo_tensor(indices, values, (3,), check_invariants=True)


other = sparse(torch.tensor([5.0, 6.0]))
edits = {
    "zero_()": lambda detached: detached.zero_(),
    "copy_(other)": lambda detached: detached.copy_(other),
    "add_(other)": lambda detached: detached.add_(other),
    "mul_(2)": lambda detached: detached.mul_(2),
    "div_(2)": lambda detached: detached.div_(2),
    "neg_()": lambda detached: detached.neg_(),
    "_values().add_(1)": lambda detached: (detached._values().add_(1), detached)[1],
}

lines = ["| edit on s.detach() | raised | s afterwards | detached afterwards | s._version |",
         "| --- | --- | --- | --- | --- |"]
messages = []  # the full message of each edit that raised, printed below the table
for name, edit in edits.items():
    s = sparse(torch.tensor([1.0, 2.0])).requires_grad_()  # a fresh sparse leaf for each edit
    detached = s.detach()
    try:
        detached = edit(detached)  # in place: returns detached itself
        raised = "no"
    except RuntimeError as error:
        raised = type(error).__name__
        messages.append(f"message for {name}: {type(error).__name__}: {error}")
    lines.append(f"| {name} | {raised} | {s.detach().to_dense().tolist()} | "
                 f"{detached.to_dense().tolist()} | {s._version} |")
print("\n".join(lines))  # one print: one block of output
for message in messages:
    print(message)

# The same edits through the other shallow twins of s: which of them changed s's values
for route, twin_of in {"s.data": lambda s: s.data, "copy.copy(s)": copy.copy}.items():
    changed = []
    for name, edit in edits.items():
        s = sparse(torch.tensor([1.0, 2.0])).requires_grad_()
        before = s.detach().to_dense().tolist()
        twin = edit(twin_of(s))  # in place: returns the twin itself
        if s.detach().to_dense().tolist() != before:
            changed.append(name)
    print(f"edits through {route} that changed s: {', '.join(changed)}")
