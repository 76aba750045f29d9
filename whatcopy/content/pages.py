"""The one reader of MyST pages: myst-nb's own ``read_myst_markdown_notebook``.

The extensions, the course kit and the tests read a page's front matter and its ``{code-cell}``
cells through this module, so a page means the same thing to all of them as to myst-nb, which
turns it into the notebook the build executes.

* :func:`read` gives a :class:`Page`: the front matter (``metadata``) and the code cells, each
  with the line of its opening fence (myst-nb's source map, 1-based), its options as myst-nb
  reads them (``load``, ``tags``, ...), its code (the ``:load:``-ed file's text, or the cell's
  own), and for a ``:load:`` cell the resolved snippet path.
* A ``:load:`` naming a missing file does not stop the reading (myst-nb would raise without a
  line): that cell's code is empty and :attr:`Cell.path` does not exist, for the caller to report
  with the page and the cell's line.
* A cell or front matter myst-nb cannot read raises :class:`PageError`, naming the page (and the
  line where myst-nb gives one).

This module imports myst-nb: the core that runs on a bare GPU machine (``whatcopy.core.transcripts``,
``snippets``, ``transcript_format``, ``child``, ``runner``) must not import it.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from myst_nb.core import read as _myst_read
from nbformat.v4 import nbbase as _nbbase


class PageError(ValueError):
    """A page myst-nb cannot read; the message names the page."""


def snippet_name(load: str) -> str:
    """``../../snippets/detach/x.py`` (a :load: value) -> ``detach/x``;
    ``../../generators/operators.py`` -> ``generators/operators`` (whatcopy.core.snippets)."""
    parts = Path(load).parts
    if "snippets" not in parts and "generators" in parts:
        return Path(*parts[parts.index("generators") :]).with_suffix("").as_posix()
    return Path(*parts[parts.index("snippets") + 1 :]).with_suffix("").as_posix()


@dataclasses.dataclass(frozen=True)
class Cell:
    page: Path
    line: int  # 1-based line of the opening ```{code-cell} fence
    options: dict  # as myst-nb reads them: load, tags, ...
    body: str  # the code: the :load:-ed file's text (empty if missing), or the cell's own

    @property
    def load(self) -> str | None:
        """The ``:load:`` value as written, or None."""
        load = self.options.get("load")
        return None if load is None else str(load)

    @property
    def snippet(self) -> str | None:
        """The snippet's name (``detach/x``, ``generators/operators``), or None."""
        return None if self.load is None else snippet_name(self.load)

    @property
    def path(self) -> Path | None:
        """The file the ``:load:`` names, resolved against the page's folder."""
        return None if self.load is None else (self.page.parent / self.load).resolve()

    @property
    def tags(self) -> list[str]:
        return [str(tag) for tag in self.options.get("tags") or []]


@dataclasses.dataclass(frozen=True)
class Page:
    path: Path
    metadata: dict  # the front matter (myst-nb adds kernelspec.display_name if missing)
    cells: list[Cell]  # the code cells, in order

    def where(self, cell: Cell) -> str:
        return f"{self.path}:{cell.line}"


_LOADING = threading.Lock()


def _load_tolerantly(nb_path, file_name, token, body_lines):
    try:
        return _ORIGINAL_LOAD(nb_path, file_name, token, body_lines)
    except _myst_read._LoadFileParsingError:
        return []  # a missing snippet: Cell.path tells, and the caller reports it with the line


_ORIGINAL_LOAD = _myst_read._load_code_from_file
_VALIDATE = _nbbase.validate


def _not_validated(node, ref=None) -> None:
    return None


# Pages read in this process: (path, source) -> (the page, the stat of each file its cells
# :load:). A build reads each page several times (its cells, the course kit's notebook and
# header buttons, the snippet index): 28 ms each with myst-nb's reader.
_READ: dict[tuple[str, str], tuple[Page, list[tuple[Path, tuple[int, int] | None]]]] = {}


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def read(path: Path, text: str | None = None) -> Page:
    """Read a MyST page (``text``: its source, if already read, e.g. in Sphinx's source-read).
    Read again only when the page or a file it loads changed since this process last read it."""
    path = Path(path)
    if text is None:
        text = path.read_text(encoding="utf-8")
    known = _READ.get((str(path), text))
    if known is not None and all(_stamp(file) == stamp for file, stamp in known[1]):
        return known[0]
    page = _read(path, text)
    loaded = [cell.path for cell in page.cells if cell.path is not None]
    _READ[(str(path), text)] = (page, [(file, _stamp(file)) for file in loaded])
    return page


def _read(path: Path, text: str) -> Page:
    # myst-nb raises, without a line, on a :load: it cannot read; read on instead (see above).
    with _LOADING:
        _myst_read._load_code_from_file = _load_tolerantly  # upstream: myst-nb-load-code
        # nbformat checks each new cell against its JSON schema, half the time of a reading;
        # the cells are read again, and checked, when the build parses the page
        _nbbase.validate = _not_validated  # upstream: nbformat-validate
        try:
            notebook = _myst_read.read_myst_markdown_notebook(text, add_source_map=True, path=path)
        except _myst_read.MystMetadataParsingError as exc:
            raise PageError(f"{path}: {exc}") from exc
        finally:
            _myst_read._load_code_from_file = _ORIGINAL_LOAD
            _nbbase.validate = _VALIDATE
    metadata = dict(notebook.metadata)
    source_map = metadata.pop("source_map")
    cells = [
        Cell(path, source_map[index], _plain(cell.metadata), cell.source)
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
    ]
    return Page(path, _plain(metadata), cells)


def front_matter(path: Path, text: str | None = None) -> dict:
    """A page's front matter, as myst-nb reads it (``{}`` without one)."""
    return read(path, text).metadata


def _plain(node) -> dict:
    """nbformat's NotebookNode as plain dicts and lists (comparable, picklable)."""
    if isinstance(node, dict):
        return {key: _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(value) for value in node]
    return node
