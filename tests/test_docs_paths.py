"""No stale path in any file a maintainer reads: every repository path that the README,
CONTRIBUTING, LICENSE, the developer docs (docs/dev/), the templates, the site's scripts,
noxfile.py and the modules' docstrings mention must exist, and LICENSE must name every folder
it covers. A path may hold placeholders (`snippets/<topic>/<name>.py`, `docs/{lang}/`) or
globs (`docs/en/*.md`); then something must match it."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest
from project import ROOT

# The folders at the top of the repository that a path in prose starts with.
TOP = (
    "whatcopy",
    "generators",
    "snippets",
    "transcripts",
    "docs",
    "tests",
    "tools",
    "requirements",
    ".ci",
    ".github",
)
# Made by a command, not (or not yet) committed: a mention of them is not stale. The build's
# output; the CUDA transcripts a GPU machine records (`nox -s cuda -- record`); the figures
# `nox -s bench` keeps.
MADE = ("docs/_build", ".nox", "node_modules", "transcripts/cuda", "docs/dev/bench.json")
PATH = re.compile(r"(?<![\w./@-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./*<>{}\-]*)")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")  # a markdown link's target
# `<name>` and `{lang}` stand for any part of a path (a snippet's <name> is topic/name); `*`
# for any part of one name, `**` or `...` for any folders.
PLACEHOLDER = re.compile(r"<[^<>]*>|\{[^{}]*\}")
CODE_SPAN = re.compile(r"`[^`]*`")


def tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()


def known_paths() -> set[str]:
    """Every committed file and every folder above one."""
    paths = set()
    for name in tracked():
        parts = name.split("/")
        paths.update("/".join(parts[:n]) for n in range(1, len(parts) + 1))
    return paths


def read_files() -> list[Path]:
    """The files whose text mentions paths (docstrings: only the module's)."""
    files = [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "LICENSE", "noxfile.py")]
    for name in tracked():
        if (
            (name.startswith("docs/dev/") and name.endswith(".md"))
            or name.startswith("docs/_templates/")
            or (name.startswith("docs/_static/") and name.endswith(".js"))
            or (name.endswith(".py") and name.split("/")[0] in ("whatcopy", "generators", "tests"))
            or (name.startswith("tools/") and name.endswith((".cjs", ".py")))
        ):
            files.append(ROOT / name)
    return sorted(set(files))


def text_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of what the file says: a Python module's docstring, all of another."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py" and path.name != "noxfile.py":
        tree = ast.parse(text)
        doc = ast.get_docstring(tree, clean=False)
        if not doc or not tree.body:
            return []
        first = tree.body[0].lineno
        return [(first + n, line) for n, line in enumerate(doc.splitlines())]
    return list(enumerate(text.splitlines(), start=1))


def clean(mention: str) -> str:
    """The path a mention names: without a sentence's punctuation or a line number."""
    return re.sub(r":\d+(-\d+)?$", "", mention.rstrip(".,;:)"))  # file.py:12-30


def exists(mention: str, base: Path = ROOT, known: set[str] | None = None) -> bool:
    mention = clean(mention).rstrip("/")
    if any(mention == m or mention.startswith(m + "/") for m in MADE):
        return True
    if not PLACEHOLDER.search(mention) and "*" not in mention and "..." not in mention:
        return (base / mention).exists()
    # a pattern: something committed must match it
    prefix = base.relative_to(ROOT).as_posix() + "/" if base != ROOT else ""
    regex = ""
    for piece in re.split(r"(<[^<>]*>|\{[^{}]*\}|\*\*/?|\*|\.\.\.)", mention):
        if PLACEHOLDER.fullmatch(piece) or piece.startswith("**") or piece == "...":
            regex += ".+"
        elif piece == "*":
            regex += "[^/]+"
        else:
            regex += re.escape(piece)
    matcher = re.compile(re.escape(prefix) + regex)
    return any(matcher.fullmatch(path) for path in (known or known_paths()))


def stale_paths(files: list[Path]) -> list[str]:
    problems, known = [], known_paths()
    for path in files:
        rel = path.relative_to(ROOT).as_posix() if ROOT in path.parents else path.name
        for number, line in text_lines(path):
            for mention in PATH.findall(line):
                if not exists(mention, ROOT, known):
                    problems.append(f"{rel}:{number}: {clean(mention)} does not exist")
            if path.suffix == ".md":
                for target in LINK.findall(CODE_SPAN.sub("", line)):  # not an example
                    if "://" in target or target.startswith("mailto:"):
                        continue
                    if not exists(target, path.parent, known):
                        problems.append(f"{rel}:{number}: link {target} does not exist")
    return problems


def test_every_path_the_docs_and_docstrings_mention_exists():
    problems = stale_paths(read_files())
    assert not problems, "stale paths (fix the mention, or the path):\n" + "\n".join(problems)


def test_the_check_finds_a_stale_path(tmp_path):
    """The check can fail: a docstring naming a removed folder, a markdown link to nowhere."""
    module, note = tmp_path / "probe.py", tmp_path / "probe.md"
    module.write_text('"""See docs/_ext/lean_theme.py and whatcopy/root.py."""\n')
    note.write_text(
        "Read [this](decisions/none.md) and `snippets/<topic>/<name>.py`,\n"
        "not snippets/<topic>/no_such_snippet.py.\n"
    )
    assert stale_paths([module, note]) == [
        "probe.py:1: docs/_ext/lean_theme.py does not exist",
        "probe.py:1: whatcopy/root.py does not exist",
        "probe.md:1: link decisions/none.md does not exist",
        "probe.md:2: snippets/<topic>/no_such_snippet.py does not exist",
    ]


def covered() -> list[str]:
    """What LICENSE must name: each folder at the top holding committed files, and each entry
    of docs/ (its code and its text are under different licences)."""
    names = set()
    for name in tracked():
        parts = name.split("/")
        if len(parts) > 1:
            names.add(parts[0] + "/")
        if parts[0] == "docs" and len(parts) > 1:
            names.add("docs/" + parts[1] + ("/" if len(parts) > 2 else ""))
    names.discard("docs/")
    return sorted(names)


@pytest.mark.parametrize("name", covered())
def test_the_licence_names_every_folder(name):
    """LICENSE says which licence covers each folder (code MIT, page text CC BY 4.0)."""
    assert name in (ROOT / "LICENSE").read_text(encoding="utf-8"), (
        f"LICENSE does not name {name}: say there which licence covers it"
    )
