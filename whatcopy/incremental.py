"""Make an output again only when what it is made of changed.

`digest_of` names what an output is made of (versions and settings, and the bytes of its
input files); `unless_unchanged` makes the output unless that digest, and the files the output
consists of, are what they were the last time (kept in a small JSON record). The course kit,
the search index and the PDF books go through it, so a rebuild that changed nothing they are
made of costs a digest, not their making again. `source_version` is a number that changes with
the package's own source, part of every digest and the Sphinx extensions' `env_version`.

Standard library only: the book printer uses it outside Sphinx.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


def source_version(sources: Iterable[Path] = SOURCES) -> int:
    """A number that changes whenever the package's source changes."""
    digest = hashlib.sha256()
    for path in sources:
        if path.exists():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return int(digest.hexdigest()[:12], 16)


def digest_of(head: str, files: Iterable[Path], base: Path) -> str:
    """A digest of `head` (versions, settings) and of each file's name below `base` and bytes:
    what an output is made of."""
    digest = hashlib.sha256(f"{head} {source_version()}".encode())
    for path in sorted(files):
        digest.update(f"\0{path.relative_to(base).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _written(folder: Path, skip: tuple[str, ...], pattern: str) -> list[list]:
    """The files below `folder` matching `pattern` (but for those below the subfolders `skip`),
    each as [name, size]."""
    files = (p for p in folder.rglob(pattern) if p.is_file())
    names = (p.relative_to(folder) for p in files)
    return sorted(
        [n.as_posix(), (folder / n).stat().st_size] for n in names if n.parts[0] not in skip
    )


def unchanged(
    record: Path, inputs: str, folder: Path, skip: tuple[str, ...] = (), pattern: str = "*"
) -> bool:
    """Whether `inputs` is what it was when the output recorded in `record` was made, and
    `folder` still holds the files it wrote then, at their sizes: `unless_unchanged` would
    make nothing. (A caller asks first to spare what it would start to make the output.)"""
    last = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else None
    return folder.is_dir() and last == {"inputs": inputs, "files": _written(folder, skip, pattern)}


def unless_unchanged(
    record: Path,
    inputs: str,
    folder: Path,
    make: Callable[[], object],
    skip: tuple[str, ...] = (),
    pattern: str = "*",
) -> bool:
    """Call `make()`, which writes into `folder`, unless `inputs` (digest_of what it is made
    of) is what it was the last time and `folder` still holds the files it wrote then, at their
    sizes (both kept in the JSON file `record`). Its files are those below `folder` matching
    `pattern`, but for those below the subfolders `skip`, which others write. Returns whether
    `make` was called."""
    if unchanged(record, inputs, folder, skip, pattern):
        return False
    record.unlink(missing_ok=True)
    make()
    record.parent.mkdir(parents=True, exist_ok=True)
    files = _written(folder, skip, pattern)
    record.write_text(json.dumps({"inputs": inputs, "files": files}), encoding="utf-8")
    return True
