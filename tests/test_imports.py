"""Shared code is reached through the installed package `whatcopy`, never by editing sys.path
or importing a file by its path, in any Python file of the repository."""

from __future__ import annotations

import ast
import subprocess
import textwrap

import pytest
from project import ROOT

# Calls that import a file by its path, or put a folder on the import path.
FILE_IMPORTS = {
    "spec_from_file_location",
    "SourceFileLoader",
    "SourcelessFileLoader",
    "run_path",
    "load_source",
    "addsitedir",
}
PATH_METHODS = {"insert", "append", "extend", "remove", "pop", "clear", "__setitem__", "__iadd__"}


def is_sys_path(node: ast.AST) -> bool:
    """`sys.path` (a `from sys import path` is reported on its own)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def offences(source: str, filename: str = "<string>") -> list[str]:
    """`file:line: what` for each sys.path edit or file-path import in `source`."""
    found = []
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "sys"
            and any(alias.name == "path" for alias in node.names)
        ):
            found.append(f"{where}: imports sys.path by name (to edit it?)")
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in FILE_IMPORTS:
                found.append(f"{where}: imports a file by its path ({name})")
            if (
                isinstance(func, ast.Attribute)
                and func.attr in PATH_METHODS
                and is_sys_path(func.value)
            ):
                found.append(f"{where}: edits sys.path (sys.path.{func.attr})")
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        for target in targets:
            base = target.value if isinstance(target, ast.Subscript) else target
            if is_sys_path(base):
                found.append(f"{where}: edits sys.path (assignment)")
    return found


def python_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [name for name in listed if (ROOT / name).exists()]


def test_no_python_file_edits_sys_path_or_imports_a_file_by_path():
    files = python_files()
    assert "noxfile.py" in files and "whatcopy/core/transcripts.py" in files, files[:10]
    found = []
    for name in files:
        found += offences((ROOT / name).read_text(encoding="utf-8"), name)
    assert not found, "import the package instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nsys.path.insert(0, 'tools')",
        "import sys\nsys.path.append('x')",
        "import sys\nsys.path[:0] = ['x']",
        "import sys\nsys.path[0] = 'x'",
        "import sys\nsys.path += ['x']",
        "import sys\nsys.path = ['x']",
        "from sys import path",
        "import importlib.util as u\nu.spec_from_file_location('b', 'tools/build.py')",
        "import runpy\nrunpy.run_path('tools/build.py')",
        "import site\nsite.addsitedir('tools')",
    ],
)
def test_the_check_catches(source):
    assert offences(textwrap.dedent(source), "demo.py"), source


def test_the_check_lets_reading_sys_path_pass():
    assert offences("import sys\nprint(sys.path[0], len(sys.path))", "demo.py") == []
