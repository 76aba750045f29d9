"""What the tests know about the project's layout, and how they read page sources."""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest

from whatcopy.content import pages as reader  # the one reader of MyST pages
from whatcopy.content.pages import snippet_name
from whatcopy.execution import clean_env
from whatcopy.site import build  # the tests' one handle on the build

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
SNIPPETS = ROOT / "snippets"
TRANSCRIPTS = ROOT / "transcripts"


# source folder under docs/ -> (output folder under docs/_build/html, <html lang>)
LANGUAGES = {key: (lang.folder, lang.hreflang) for key, lang in build.LANGUAGES.items()}

# Lines a test adds to pytest's closing summary (tests/conftest.py prints them).
NOTES = pytest.StashKey[list[str]]()

# directives whose text is prose ({on-cuda}: whatcopy/sphinxext/device_prose.py)
PROSE_DIRECTIVES = ("{glossary}", "{note}", "{warning}", "{tip}", "{admonition}", "{on-cuda}")
LABEL = re.compile(r"^\((?P<label>[\w-]+)\)=\s*$")
# A MyST role as a page's source writes it: {name}`text` ({out}, {claim}, {term} ...).
ROLE = re.compile(r"\{[\w:-]+\}`(?P<text>[^`]*)`")


@dataclasses.dataclass(frozen=True)
class Page:
    language: str  # its folder under docs/: en or zh
    path: Path

    @property
    def rel(self) -> str:
        return (
            self.path.relative_to(ROOT).as_posix() if ROOT in self.path.parents else str(self.path)
        )

    @property
    def docname(self) -> str:
        return self.path.relative_to(DOCS / self.language).with_suffix("").as_posix()

    @property
    def html(self) -> Path:
        return HTML / LANGUAGES[self.language][0] / (self.docname + ".html")

    @property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def cells(self) -> list[reader.Cell]:
        return reader.read(self.path, self.text).cells

    def front_matter(self) -> dict:
        return reader.read(self.path, self.text).metadata

    def labels(self) -> list[str]:
        return [m.group("label") for line in self.text.splitlines() if (m := LABEL.match(line))]

    def prose_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of the lines a reader reads as prose: no front matter, code
        cells, fenced blocks or labels."""
        result = []
        lines = self.text.splitlines()
        # line index -> the fenced block it is part of (MyST's parser: reader.fences)
        fenced = {i: f for f in reader.fences(self.text) for i in range(f.start, f.end)}
        in_front_matter = bool(lines) and lines[0].strip() == "---"
        for number, line in enumerate(lines, start=1):
            if in_front_matter:
                if number > 1 and line.strip() == "---":
                    in_front_matter = False
                continue
            if fence := fenced.get(number - 1):
                body = fence.start < number - 1 != fence.closing
                if body and fence.directive in PROSE_DIRECTIVES and not line.startswith(":"):
                    result.append((number, line))
                continue
            if LABEL.match(line):
                continue
            result.append((number, line))
        return result


HEADING = re.compile(r"^(?P<level>#{1,6}) ")


def sections(path: Path) -> dict[str, dict]:
    """Each (label)= of a MyST page: its line, and whether the section it opens (up to the next
    heading of the same or a higher level) contains a {code-cell}."""
    lines = path.read_text(encoding="utf-8").splitlines()
    headings = []  # (index, level) of the headings outside fenced blocks
    # indexes of the {code-cell} fences, as myst-nb reads them (whatcopy.content.pages)
    cells = [cell.line - 1 for cell in reader.read(path).cells]
    fenced = {
        i for f in reader.fences(path.read_text(encoding="utf-8")) for i in range(f.start, f.end)
    }
    for index, line in enumerate(lines):
        if index in fenced:
            continue
        if heading := HEADING.match(line):
            headings.append((index, len(heading.group("level"))))
    found = {}
    for index, line in enumerate(lines):
        if not (match := LABEL.match(line)):
            continue
        after = [(i, level) for i, level in headings if i > index]
        if not after or any(
            not (LABEL.match(lines[j]) or not lines[j].strip())
            for j in range(index + 1, after[0][0])
        ):
            found[match.group("label")] = {"line": index + 1, "heading": False, "cell": False}
            continue
        start, level = after[0]
        end = next((i for i, lv in after[1:] if lv <= level), len(lines))
        found[match.group("label")] = {
            "line": index + 1,
            "heading": True,
            "cell": any(start < cell < end for cell in cells),
        }
    return found


def site_sections(language: str = "en") -> dict[str, tuple[Path, dict]]:
    return {
        label: (page, info)
        for page in sorted((DOCS / language).glob("*.md"))
        for label, info in sections(page).items()
    }


@functools.cache
def _parsed(path: Path, stamp: tuple[int, int]):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def parsed_html(path: Path):
    """The HTML file parsed, once per test process and version of the file: many tests read
    the same built pages. Read-only: no test may change the tree it gets."""
    stat = path.stat()
    return _parsed(path, (stat.st_mtime_ns, stat.st_size))


def executed_cells(page: Page) -> list[tuple[str, str, str | None]]:
    """(snippet name, printed text, exception line) of each cell, as the built page shows what
    the build executed (a test that calls this asks for the `built_site` fixture)."""
    soup = parsed_html(page.html)
    cells = []
    for cell in soup.select("div.cell"):
        path = cell.select_one(".snippet-meta code").get_text()
        printed = "".join(pre.get_text() for pre in cell.select(".cell_output .stream pre"))
        errors = [pre.get_text().strip() for pre in cell.select(".cell_output .traceback pre")]
        cells.append((snippet_name(path), printed, errors[0] if errors else None))
    return cells


def pages(language: str) -> list[Page]:
    return [Page(language, p) for p in sorted((DOCS / language).rglob("*.md"))]


def all_pages() -> list[Page]:
    return [page for language in LANGUAGES for page in pages(language)]


PROBE = clean_env.PROBE.format(needs=clean_env.NEEDS["snippets"])


def clean_python(
    folder: Path, requirements: Path = ROOT / "requirements" / "snippets.txt", probe: str = PROBE
) -> Path:
    """A virtual environment in `folder` that can import the standard library and exactly the
    distributions `requirements` names, with what they require, linked from this interpreter's
    (whatcopy/execution/clean_env.py, which the build's snippet runs use too). `probe`
    (Python code) must exit 0 in it."""
    return clean_env.clean_python(folder, requirements, probe)
