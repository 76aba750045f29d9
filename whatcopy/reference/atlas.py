"""The error atlas: what ``generators/errors.py`` prints, read back as entries.

Each entry is a message (or a warning followed by the error it leads to) as the installed torch
printed it, the code that triggered it, and the fix with what the fix printed. The page's
extension (``whatcopy/sphinxext/atlas.py``) draws the entries from the text the page's cell
printed; the tests compare that text with the generator's transcript. Standard library only,
like the recorder. Text this module cannot read raises :class:`AtlasError`, naming the line,
so a generator changed without this reader fails the build with that message.
"""

from __future__ import annotations

import dataclasses
import re

from whatcopy.reference.op_table import printed  # noqa: F401  (a transcript's printed text: shared)

NAME = "generators/errors"  # the generator's name (whatcopy.core.snippets)
ENTRY = re.compile(r"^entry: (?P<ident>[a-z0-9-]+) \| (?P<topic>[a-z]+)$")
SUMMARY = re.compile(r"^(?P<key>[a-zA-Z][\w -]*): (?P<value>.*)$")
MESSAGE = re.compile(r"^(?P<kind>raises|warns) (?P<category>\w+):$")
CODE, FIX, AFTER = "code:", "fix:", "after the fix, nothing raised or warned:"
INDENT = "    "
HEADLINE_LENGTH = 100  # characters of a message kept in a heading and in links to it


class AtlasError(ValueError):
    """The printed text is not the atlas this module reads; the message says where."""


@dataclasses.dataclass(frozen=True)
class Message:
    kind: str  # "raises" or "warns"
    category: str  # the exception's or the warning's class: RuntimeError, UserWarning
    text: str  # str() of the exception or of the warning's message

    @property
    def shown(self) -> str:
        """The message as a traceback's last line (or Python's warning line) starts:
        ``RuntimeError: Trying to ...``."""
        return f"{self.category}: {self.text}"

    @property
    def headline(self) -> str:
        """The category and the message's first sentence (its first two lines when the first
        ends with a colon), cut at a word to about HEADLINE_LENGTH characters."""
        lines = [line.strip() for line in self.text.split("\n") if line.strip()]
        first = lines[0] if lines else ""
        if first.endswith(":") and len(lines) > 1:
            first = f"{first} {lines[1]}"
        sentence = re.split(r"(?<=[^.][.!?])\s", first, maxsplit=1)[0]
        if len(sentence) > HEADLINE_LENGTH:
            sentence = sentence[:HEADLINE_LENGTH].rsplit(" ", 1)[0].rstrip(",;:") + " …"
        return f"{self.category}: {sentence}"


@dataclasses.dataclass(frozen=True)
class Entry:
    ident: str
    topic: str
    code: str
    messages: tuple[Message, ...]
    fix: str
    after: str  # what the fix printed
    line: int  # where the entry starts in the printed text (1-based)

    @property
    def anchor(self) -> str:
        """The entry's id on the page and its label for other pages: ``err-<id>``."""
        return "err-" + self.ident

    @property
    def message(self) -> Message:
        """The entry's message: the error, or the one warning."""
        return self.messages[-1]


@dataclasses.dataclass(frozen=True)
class Atlas:
    summary: dict[str, str]  # the "key: value" lines above the entries
    entries: list[Entry]

    def entry(self, ident: str) -> Entry | None:
        return next((e for e in self.entries if e.ident == ident), None)

    def topics(self) -> list[str]:
        return list(dict.fromkeys(e.topic for e in self.entries))


def _blocks(lines: list[str], start: int) -> list[tuple[str, str, int]]:
    """(heading line, its indented text, line number) for each block of one entry."""
    blocks: list[tuple[str, list[str], int]] = []
    for offset, line in enumerate(lines):
        number = start + offset
        if line.startswith(INDENT):
            if not blocks:
                raise AtlasError(f"line {number}: indented text before any block heading")
            blocks[-1][1].append(line[len(INDENT) :])
        elif not line.strip():
            if blocks:
                blocks[-1][1].append("")
        else:
            blocks.append((line, [], number))
    return [(head, "\n".join(body).rstrip("\n"), number) for head, body, number in blocks]


def parse(text: str) -> Atlas:
    """The atlas in the generator's printed output."""
    lines = text.replace("<BLANKLINE>", "").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("entry: ")]
    if not starts:
        raise AtlasError("no line 'entry: <id> | <topic>': not the error atlas's output")
    summary = {}
    for line in lines[: starts[0]]:
        if match := SUMMARY.match(line):
            summary[match["key"]] = match["value"]
    entries = []
    for index, start in enumerate(starts):
        header = ENTRY.match(lines[start])
        if not header:
            raise AtlasError(f"line {start + 1}: not 'entry: <id> | <topic>': {lines[start]!r}")
        end = starts[index + 1] if index + 1 < len(starts) else len(lines)
        blocks = _blocks(lines[start + 1 : end], start + 2)
        heads = [head for head, _, _ in blocks]
        messages = [MESSAGE.match(head) for head in heads[1:-2]]
        if len(blocks) < 4 or heads[0] != CODE or heads[-2:] != [FIX, AFTER] or not all(messages):
            raise AtlasError(
                f"line {start + 1}: entry {header['ident']!r} has the blocks {heads}; expected "
                f"{CODE!r}, one or more 'raises|warns <Category>:', {FIX!r}, {AFTER!r}"
            )
        entries.append(
            Entry(
                ident=header["ident"],
                topic=header["topic"],
                code=blocks[0][1],
                messages=tuple(
                    Message(m["kind"], m["category"], body)
                    for m, (_, body, _) in zip(messages, blocks[1:-2], strict=True)
                ),
                fix=blocks[-2][1],
                after=blocks[-1][1],
                line=start + 1,
            )
        )
    idents = [e.ident for e in entries]
    if len(set(idents)) != len(idents):
        twice = sorted({i for i in idents if idents.count(i) > 1})
        raise AtlasError(f"entries listed twice: {', '.join(twice)}")
    return Atlas(summary, entries)
