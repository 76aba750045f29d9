"""Which Chinese pages are behind their English twin.

Each Chinese page records, in its front matter, the version of the English page it matches:

    translation_of: "3f2a9c1e07bd"  # first 12 hex digits of the sha256 of docs/en/<page>.md

    python -m whatcopy.content.translations status          # list outdated pages; exit 1 if any
    python -m whatcopy.content.translations mark docs/zh/detach.md ...
                                                 # after bringing a page up to date

Any edit to an English page, a typo included, makes its twin outdated until someone who read
the change marks the Chinese page as matching again.

The front matter is read as myst-nb reads it (whatcopy.content.pages); ``mark`` rewrites only the one
line of the field, leaving the rest of the page as it was written.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

from whatcopy import project
from whatcopy.content import pages

# the field's line, for `mark` to replace (reading goes through myst-nb)
FIELD_LINE = re.compile(r"^translation_of:.*$", re.MULTILINE)


def english_version(english: Path) -> str:
    return hashlib.sha256(english.read_bytes()).hexdigest()[:12]


def recorded_version(chinese: Path) -> object:
    """The version the page's front matter records, or None. A string, unless written unquoted
    and all digits, which YAML reads as a number (`mark` writes it quoted)."""
    return pages.front_matter(chinese).get("translation_of")


def twin(chinese: Path) -> Path:
    docs = project.current().docs
    return docs / "en" / Path(chinese).resolve().relative_to(docs / "zh")


def problems() -> list[str]:
    found, root = [], project.current().root
    for chinese in sorted((root / "docs" / "zh").rglob("*.md")):
        english = twin(chinese)
        rel = chinese.relative_to(root)
        if not english.exists():
            found.append(f"{rel}: no English twin {english.relative_to(root)}")
            continue
        recorded = recorded_version(chinese)
        if recorded is None:
            found.append(f"{rel}: no `translation_of:` in its front matter")
        elif not isinstance(recorded, str):
            found.append(f"{rel}: `translation_of:` is read as a number; quote it (mark does)")
        elif recorded != english_version(english):
            found.append(
                f"{rel}: matches version {recorded} of {english.relative_to(root)}, which is now "
                f"{english_version(english)}; bring it up to date, then "
                f"`nox -s translations -- mark {rel}`"
            )
    return found


def mark(chinese: Path) -> None:
    chinese = Path(chinese).resolve()  # as the command line gives it: relative to here
    version = english_version(twin(chinese))
    text = chinese.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise SystemExit(f"{chinese}: no front matter")
    head, rest = text[4:].split("\n---", 1)
    line = f'translation_of: "{version}"  # sha256[:12] of the English page this page matches'
    head = FIELD_LINE.sub(line, head) if FIELD_LINE.search(head) else head + "\n" + line
    chinese.write_text("---\n" + head + "\n---" + rest, encoding="utf-8")
    print(f"{chinese.relative_to(project.current().root)}: marked as matching {version}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["mark"] and len(argv) > 1:
        for name in argv[1:]:
            mark(Path(name).resolve())
        return 0
    if argv in ([], ["status"]):
        found = problems()
        print("\n".join(found) if found else "every Chinese page matches its English twin")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
