"""The interpreters the snippets run in: what a reader has, and nothing else.

A teacher's snippet runs in an interpreter that can import the standard library, torch, NumPy
and what they need, and nothing else (requirements/snippets.txt); a generator in one that can
import what requirements/generators.txt names. So a run on the site proves what the transcript
check needs to know too: `python snippet.py` works for a reader who installed only torch, and
each snippet runs once, for the pages and for the tests.

Each interpreter is a virtual environment whose packages are linked, not installed, from this
interpreter's (the versions are the tested ones, and making it takes about a second). The
build keeps them in its runs folder (``python_for()``) and makes them again when the
interpreter that made them, or the requirements, changed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

from packaging.requirements import Requirement

import whatcopy

REQUIREMENTS = Path(whatcopy.__file__).resolve().parents[1] / "requirements"

# Code that exits 0 only in an interpreter that finds torch and NumPy but not Sphinx or pytest
# (found, not imported: the fork server imports torch right after).
PROBE = (
    "import importlib.util as u, sys; found = lambda m: u.find_spec(m) is not None; "
    "sys.exit(0 if all(map(found, {needs!r})) and not found('sphinx') and not found('pytest') "
    "else 3)"
)
NEEDS = {"snippets": ["torch", "numpy"], "generators": ["torch", "numpy", "expecttest"]}


def _closure(names: list[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions `names` need, their requirements included (extras left out)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = list(names)
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = requirement.name.lower().replace("_", "-")
        if key in found:
            continue
        found[key] = importlib.metadata.distribution(requirement.name)
        todo += found[key].requires or []
    return list(found.values())


def requirement_lines(requirements: Path) -> list[str]:
    """The requirements a file names, those of the files it includes (``-r other.txt``) too."""
    found = []
    for line in requirements.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            found += requirement_lines(requirements.parent / line[3:].strip())
        elif line and not line.startswith("-"):
            found.append(line)
    return found


def clean_python(folder: Path, requirements: Path, probe: str) -> Path:
    """A virtual environment in `folder` that can import the standard library and exactly the
    distributions `requirements` names, with what they require, each linked from this
    interpreter's. `probe` (Python code) must exit 0 in it."""
    venv.create(folder, with_pip=False, symlinks=True)  # no pip: nothing else gets in
    site = next(folder.glob("lib/python*/site-packages"))
    for dist in _closure(requirement_lines(requirements)):
        tops = {Path(f).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in sorted(tops - {"__pycache__"}):
            target = Path(dist.locate_file(top))
            if target.exists() and not (site / top).exists():
                (site / top).symlink_to(target)
    python = folder / "bin" / "python"
    found = subprocess.run(
        [str(python), "-I", "-c", probe], capture_output=True, text=True, check=False
    )
    if found.returncode:
        raise RuntimeError(f"{folder}: not a clean environment of {requirements}\n{found.stderr}")
    return python


def python_for(kind: str, folder: Path) -> Path:
    """The interpreter for `kind` ("snippets" or "generators"), kept in `folder`/python-<kind>:
    made the first time, and again when this interpreter or the requirements changed."""
    requirements = REQUIREMENTS / f"{kind}.txt"
    made_by = "\n".join([sys.executable, *requirement_lines(requirements)])
    target = Path(folder) / f"python-{kind}"
    stamp = target / "made-by"
    python = target / "bin" / "python"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == made_by and python.exists():
        return python
    # made beside its place, then moved there whole: a build stopped meanwhile leaves none
    part = target.with_name(f"{target.name}.{hashlib.sha256(made_by.encode()).hexdigest()[:8]}")
    shutil.rmtree(part, ignore_errors=True)
    clean_python(part, requirements, PROBE.format(needs=NEEDS[kind]))
    (part / "made-by").write_text(made_by, encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    part.rename(target)
    return python


def interpreters(build: Path) -> Callable[[str], Path]:
    """`python_for` of the build folder `build` (its runs folder keeps the interpreters), as
    whatcopy.core.runs.run_missing asks for them."""
    from whatcopy.core import runs

    return functools.partial(python_for, folder=Path(build) / runs.FOLDER)
