"""How far common in-place statements move a tensor's version counter: most by 1, a += on an integer index or a slice by 2, some by 0."""
import torch

statements = [
    "a.add_(1)",
    "a += 1",
    "a[0] = 5.0",
    "a[0] += 2",
    "a[1:] += 2",
    "a[[0, 1]] += 2",
    "a[0].add_(2)",
    "a.add_(1).mul_(2)",
    "torch.add(a, 1, out=a)",
    "a.t_()",
    "a.resize_(4)",
    "a.resize_(2)",
    "a.data.add_(1)",
    "a.requires_grad_()",
]

lines = ["| statement | a._version moved by |", "| --- | --- |"]
for statement in statements:
    a = torch.zeros(4)  # a fresh tensor of 4 elements for each statement
    before = a._version
    exec(statement, {"torch": torch, "a": a})  # runs the statement exactly as written
    lines.append(f"| {statement} | {a._version - before} |")
print("\n".join(lines))  # one print: one block of output
