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
* :func:`fences` gives a page's fenced blocks (backtick, tilde and colon fences) as MyST's own
  parser reads them (markdown-it-py with myst-parser's plugins), for the checks that read a
  page's prose around them.

This module imports myst-nb: the core that runs on a bare GPU machine (``whatcopy.core.transcripts``,
``snippets``, ``transcript_format``, ``child``, ``runner``) must not import it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import threading
from pathlib import Path

from myst_nb.core import read as _myst_read
from nbformat.v4 import nbbase as _nbbase

# myst-parser's syntax extensions the site enables (site_conf.py's myst_enable_extensions)
MYST_EXTENSIONS = ("colon_fence", "deflist")


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


@dataclasses.dataclass(frozen=True)
class Fence:
    """A fenced block at the top level of a page, starting at the line's first column."""

    start: int  # 0-based index of its opening line
    end: int  # 0-based index past its last line (its closing fence, or the page's end)
    marker: str  # the opening fence as written: ```, ````, ~~~, :::
    info: str  # what follows the marker: "{code-cell} python", "{note}", "python", ""
    body: str  # the lines between the fences
    closed: bool  # whether a closing fence ends it (else it runs to the page's end)

    @property
    def directive(self) -> str:
        """``{name}`` for a directive (``{code-cell}``, ``{note}``), else ``""``."""
        found = re.match(r"\{[\w-]+\}", self.info)
        return found.group(0) if found else ""

    @property
    def closing(self) -> int | None:
        """0-based index of its closing fence's line, if it has one."""
        return self.end - 1 if self.closed else None


@functools.cache
def _markdown():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(MdParserConfig(enable_extensions=set(MYST_EXTENSIONS)), RendererHTML)


@functools.lru_cache(maxsize=512)
def fences(text: str) -> tuple[Fence, ...]:
    """The page's fenced blocks, in order, as MyST reads them: only the outermost (a fence
    inside a directive is its body's), and only those at the first column of a line."""
    lines = text.split("\n")  # (markdown-it's lines)
    found = []
    for token in _markdown().parse(text):
        if token.type not in ("fence", "colon_fence") or token.level or not token.map:
            continue
        start, end = token.map
        marker = token.markup
        if not lines[start].startswith(marker):
            continue  # indented
        last = lines[end - 1].strip() if end - 1 > start else ""
        closed = len(last) >= len(marker) and set(last) == {marker[0]}
        found.append(Fence(start, end, marker, token.info.strip(), token.content, closed))
    return tuple(found)


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
