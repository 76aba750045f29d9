"""Where the project is: one `Project` holds its paths; `current()` is the one being worked on.

The root holds pyproject.toml and snippets/. It is discovered by walking up from the working
directory (Sphinx reads each conf.py from its own folder, docs/<lang>/, so discovery works
there too), never derived from where this package's files are (an installed copy may live in
site-packages). A command that works on another copy says so with `use(root)`; a Sphinx build
says so with its `whatcopy_root` config value (set by site_conf.py). No environment variable
names the root: docs/dev/configuration.md.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path


def is_root(path: Path) -> bool:
    return (path / "pyproject.toml").is_file() and (path / "snippets").is_dir()


def find_root(start: Path | None = None) -> Path:
    """The nearest folder above `start` (default: the working directory) holding
    pyproject.toml and snippets/; else `start` itself."""
    here = Path(start or Path.cwd()).resolve()
    for path in (here, *here.parents):
        if is_root(path):
            return path
    return here


@dataclasses.dataclass(frozen=True)
class Project:
    root: Path

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def snippets(self) -> Path:
        return self.root / "snippets"

    @property
    def transcripts(self) -> Path:
        return self.root / "transcripts"

    @property
    def generators(self) -> Path:
        return self.root / "generators"

    @property
    def locale(self) -> Path:
        return self.docs / "locale"

    @property
    def build(self) -> Path:
        """The default build folder (``python -m whatcopy build --out`` chooses another)."""
        return self.docs / "_build"


_current: Project | None = None


def current() -> Project:
    """The project being worked on: the one `use()` named, else the one above the working
    directory (found once, when first asked)."""
    global _current
    if _current is None:
        _current = Project(find_root())
    return _current


def use(root: Path | str) -> Project:
    """Work on the project at `root` from now on (a copy, for tests and the benchmark); return
    the previous one, for the caller to restore."""
    global _current
    previous = current()
    _current = Project(Path(root).resolve())
    return previous


GITHUB = r"github\.com[:/]([\w.-]+)/([\w.-]+?)(?:\.git)?/?$"


def github_repository(root: Path) -> str | None:
    """The project's GitHub repository, ``owner/name``: from the clone's ``origin`` remote, else
    from a github.com address among pyproject.toml's ``[project.urls]``; None when neither says."""
    import re
    import subprocess
    import tomllib

    try:
        remote = subprocess.run(
            ["git", "config", "--get", "remote.origin.url"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:  # no git
        remote = ""
    urls = [remote]
    try:
        meta = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        urls += list(meta.get("project", {}).get("urls", {}).values())
    except (OSError, tomllib.TOMLDecodeError):
        pass
    for url in urls:
        if match := re.search(GITHUB, url or ""):
            return f"{match.group(1)}/{match.group(2)}"
    return None


def pages_url(repository: str) -> str:
    """Where GitHub Pages publishes ``owner/name`` (the deploy workflow's SITE_URL), ending in /."""
    owner, _, name = repository.partition("/")
    return f"https://{owner.lower()}.github.io/{name}/"


def repository(root: Path | None = None) -> str:
    """``owner/name`` of the project on GitHub: GitHub Actions' GITHUB_REPOSITORY, else
    `github_repository`, else the project's own name."""
    import os

    return (
        os.environ.get("GITHUB_REPOSITORY")
        or github_repository(root or current().root)
        or "what-does-it-copy/what-does-it-copy"
    )
