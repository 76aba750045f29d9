"""The recorder's core: the snippet model, the transcript format, the fork server and its doctest
child, and the record/check command. Standard library and torch only (a layer contract in
pyproject.toml checks it), so a GPU machine with nothing else can run `python -m whatcopy
record --device cuda` from the repository root."""
