"""A code block that uses torch without importing it stops at its first line with NameError."""
import torch

first_line = "a = torch.tensor([1.0, 1.0], requires_grad=True)"

with_import = {}
exec("import torch\n" + first_line, with_import)
print("with import torch, a:", with_import["a"])

block_namespace = {}  # a fresh program, as a reader who copies the block runs it
exec(first_line, block_namespace)  # raises NameError
