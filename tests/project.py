"""What the tests know about the project's layout, and how they read page sources."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
SNIPPETS = ROOT / "snippets"
TRANSCRIPTS = ROOT / "transcripts"

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(DOCS / "_ext"))

import build  # noqa: E402  (tools/build.py)

# source folder under docs/ -> (output folder under docs/_build/html, <html lang>)
LANGUAGES = {key: (lang.folder, lang.hreflang) for key, lang in build.LANGUAGES.items()}

FENCE = re.compile(r"^(`{3,}|~{3,}|:{3,})")
# directives whose text is prose ({on-cuda}: docs/_ext/device_prose.py)
PROSE_DIRECTIVES = ("{glossary}", "{note}", "{warning}", "{tip}", "{admonition}", "{on-cuda}")
LABEL = re.compile(r"^\((?P<label>[\w-]+)\)=\s*$")


def snippet_name(load: str) -> str:
    """``../../snippets/detach/x.py`` (a :load: value) -> ``detach/x``."""
    parts = Path(load).parts
    return Path(*parts[parts.index("snippets") + 1 :]).with_suffix("").as_posix()


@dataclasses.dataclass(frozen=True)
class Cell:
    line: int
    options: tuple[str, ...]  # the ":key: value" lines, verbatim
    body: str

    @property
    def load(self) -> str | None:
        for option in self.options:
            if option.startswith(":load:"):
                return option.split(":", 2)[2].strip()
        return None

    @property
    def snippet(self) -> str | None:
        """The snippet's name below snippets/, without .py."""
        return None if self.load is None else snippet_name(self.load)


@dataclasses.dataclass(frozen=True)
class Page:
    language: str  # its folder under docs/: en or zh
    path: Path

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix() if ROOT in self.path.parents else str(self.path)

    @property
    def docname(self) -> str:
        return self.path.relative_to(DOCS / self.language).with_suffix("").as_posix()

    @property
    def html(self) -> Path:
        return HTML / LANGUAGES[self.language][0] / (self.docname + ".html")

    @property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def cells(self) -> list[Cell]:
        cells = []
        lines = self.text.splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            match = FENCE.match(line)
            if match and "{code-cell}" in line:
                fence = match.group(1)
                start = index + 1
                index += 1
                options = []
                while index < len(lines) and lines[index].startswith(":"):
                    options.append(lines[index].rstrip())
                    index += 1
                body = []
                while index < len(lines) and not lines[index].startswith(fence):
                    body.append(lines[index])
                    index += 1
                cells.append(Cell(start, tuple(options), "\n".join(body).strip()))
            index += 1
        return cells

    def labels(self) -> list[str]:
        return [m.group("label") for line in self.text.splitlines() if (m := LABEL.match(line))]

    def prose_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of the lines a reader reads as prose: no front matter, code
        cells, fenced blocks or labels."""
        result = []
        lines = self.text.splitlines()
        in_fence: str | None = None
        in_prose_fence = False
        in_front_matter = bool(lines) and lines[0].strip() == "---"
        for number, line in enumerate(lines, start=1):
            if in_front_matter:
                if number > 1 and line.strip() == "---":
                    in_front_matter = False
                continue
            match = FENCE.match(line)
            if in_fence:
                if match and line.strip() == in_fence:
                    in_fence = None
                elif in_prose_fence and not line.startswith(":"):
                    result.append((number, line))
                continue
            if match:
                in_fence = match.group(1)
                in_prose_fence = any(d in line for d in PROSE_DIRECTIVES)
                continue
            if LABEL.match(line):
                continue
            result.append((number, line))
        return result


def pages(language: str) -> list[Page]:
    return [Page(language, p) for p in sorted((DOCS / language).rglob("*.md"))]


def all_pages() -> list[Page]:
    return [page for language in LANGUAGES for page in pages(language)]
