"""Where the project is: its root holds pyproject.toml, snippets/ and transcripts/.

The root is passed (``WHATCOPY_ROOT``) or discovered by walking up from the working directory,
never derived from where this package's files happen to be (an installed copy may live in
site-packages). Sphinx reads each conf.py from its own folder (docs/<lang>/), so discovery
works there too.
"""

from __future__ import annotations

import os
from pathlib import Path


def is_root(path: Path) -> bool:
    return (path / "pyproject.toml").is_file() and (path / "snippets").is_dir()


def find_root(start: Path | None = None) -> Path:
    """The project root: $WHATCOPY_ROOT, else the nearest folder above `start` (default: the
    working directory) holding pyproject.toml and snippets/; else `start` itself."""
    if os.environ.get("WHATCOPY_ROOT"):
        return Path(os.environ["WHATCOPY_ROOT"]).resolve()
    here = Path(start or Path.cwd()).resolve()
    for path in (here, *here.parents):
        if is_root(path):
            return path
    return here
