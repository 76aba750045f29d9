"""The snippet model: a snippet file, its statements, its claim and the two markers it may
carry (``# raises SomeError`` on its last statement, ``# device-dependent: why``); where the
project's snippets and transcripts are (``set_root``). Standard library only.

A generator (``generators/<name>.py``) is recorded and checked like a snippet, under the name
``generators/<name>`` (its transcripts: ``transcripts/<device>/generators/<name>.txt``), but it
is no teacher's snippet: it may need more than torch and numpy (requirements/generators.txt),
and it is not part of the snippets' archive. So ``all_snippets()`` leaves it out;
``all_generators()`` lists it, and ``resolve([])``, what the recorder runs, takes both."""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import re
from pathlib import Path

from whatcopy import project

ROOT = project.current().root  # whatcopy/project.py; --root (set_root) changes it
SNIPPETS = ROOT / "snippets"
GENERATORS = ROOT / "generators"
TRANSCRIPTS = ROOT / "transcripts"
DEVICES = ("cpu", "cuda")


def set_root(root: Path) -> Path:
    """Work on the project at `root` (its snippets/ and transcripts/); return the previous root."""
    global ROOT, SNIPPETS, GENERATORS, TRANSCRIPTS
    previous = ROOT
    project.use(root)
    ROOT = project.current().root
    SNIPPETS, GENERATORS = ROOT / "snippets", ROOT / "generators"
    TRANSCRIPTS = ROOT / "transcripts"
    return previous


RAISES = re.compile(r"#\s*raises\s+([A-Za-z_][\w.]*)")
DEVICE_DEPENDENT = re.compile(r"^#\s*device-dependent:\s*(.+)$", re.MULTILINE)


@functools.lru_cache(maxsize=4096)
def _real(path: Path) -> Path:
    """An absolute path with its links resolved, asked of the file system once per process: a
    build asks a snippet its name, kind and place thousands of times (a look-up per folder of
    its path each)."""
    return path.resolve()


@functools.lru_cache(maxsize=1024)
def _parse(source: str, filename: str) -> ast.Module:
    """A snippet's source parsed once per process while it is the same (callers only read)."""
    return ast.parse(source, filename=filename)


class SnippetError(Exception):
    """A problem with one snippet, already phrased for the person who must fix it."""


@dataclasses.dataclass(frozen=True)
class Statement:
    line: int  # line of the statement itself (after any leading comments)
    first_line: int  # first line of the example, leading comments included
    source: str


@dataclasses.dataclass(frozen=True)
class Snippet:
    path: Path

    def _resolved(self) -> Path:
        return _real(self.path) if self.path.is_absolute() else self.path.resolve()

    @property
    def rel(self) -> str:
        return self._resolved().relative_to(ROOT).as_posix()

    @property
    def name(self) -> str:
        """``detach/stops_gradient``: the snippet's path below snippets/, without .py;
        ``generators/operators`` for a generator."""
        path = self._resolved()
        if self.is_generator:
            return "generators/" + path.relative_to(GENERATORS).with_suffix("").as_posix()
        return path.relative_to(SNIPPETS).with_suffix("").as_posix()

    @property
    def is_generator(self) -> bool:
        return GENERATORS in self._resolved().parents

    @property
    def source(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SnippetError(f"{self.rel}: snippet file not found") from None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()

    @property
    def claim(self) -> str:
        doc = ast.get_docstring(self._tree())
        if not doc:
            raise SnippetError(f"{self.rel}:1: a snippet starts with a docstring stating its claim")
        return " ".join(doc.split())

    @property
    def device_dependent(self) -> str | None:
        match = DEVICE_DEPENDENT.search(self.source)
        return match.group(1).strip() if match else None

    @property
    def raises(self) -> str | None:
        """The exception the last statement is declared to raise, if any."""
        statements = self.statements()
        for stmt in statements[:-1]:
            if RAISES.search(stmt.source):
                raise SnippetError(
                    f"{self.rel}:{stmt.line}: only the last statement may be marked "
                    "'# raises ...': a snippet meant to fail ends at the failing line"
                )
        match = RAISES.search(statements[-1].source) if statements else None
        return match.group(1) if match else None

    def transcript(self, device: str) -> Path:
        return TRANSCRIPTS / device / f"{self.name}.txt"

    def _tree(self) -> ast.Module:
        try:
            return _parse(self.source, self.rel)
        except SyntaxError as exc:
            raise SnippetError(f"{self.rel}:{exc.lineno}: syntax error: {exc.msg}") from None

    def statements(self) -> list[Statement]:
        """Top-level statements, each with the comment lines right above it, docstring left out.

        Statements that share a line (``a = 1; b = 2``) stay together as one example.
        """
        tree = self._tree()
        lines = self.source.splitlines()
        body = list(tree.body)
        if body and ast.get_docstring(tree) is not None:
            body = body[1:]
        groups: list[list[int]] = []  # [start, end] line spans, 1-based, inclusive
        for node in body:
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            end = node.end_lineno or node.lineno
            if groups and start <= groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], end)
            else:
                groups.append([start, end])
        statements = []
        previous_end = 0
        for start, end in groups:
            first = start
            while first - 1 > previous_end and lines[first - 2].lstrip().startswith("#"):
                first -= 1
            text = "\n".join(lines[first - 1 : end])
            statements.append(Statement(line=start, first_line=first, source=text))
            previous_end = end
        return statements


def all_snippets() -> list[Snippet]:
    """The teachers' snippets (no generator)."""
    if (SNIPPETS / "generators").exists():  # its snippets' names would be generators' names
        raise SnippetError("snippets/generators/: a reserved name; give the topic another one")
    return [Snippet(p) for p in sorted(SNIPPETS.rglob("*.py"))]


def all_generators() -> list[Snippet]:
    return [Snippet(p) for p in sorted(GENERATORS.glob("*.py"))]


def by_name(name: str) -> Snippet:
    """The snippet or generator of that name (``detach/x``, ``generators/operators``)."""
    if name.startswith("generators/"):
        return Snippet(GENERATORS / f"{name.removeprefix('generators/')}.py")
    return Snippet(SNIPPETS / f"{name}.py")


def resolve(paths: list[str]) -> list[Snippet]:
    if not paths:
        return all_snippets() + all_generators()
    found = []
    for arg in paths:
        path = Path(arg)
        if not path.is_absolute():
            path = (Path.cwd() / path) if (Path.cwd() / path).exists() else ROOT / path
        if path.is_dir():
            found += [Snippet(p) for p in sorted(path.rglob("*.py"))]
        else:
            found.append(Snippet(path))
    return found
