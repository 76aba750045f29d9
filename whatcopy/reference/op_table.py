"""The operator reference: the table ``generators/operators.py`` prints, read back as rows.

The page's extension (``whatcopy/sphinxext/op_reference.py``) draws the table from the text the
page's cell printed, the tests compare its rows with fresh executions, and the weekly
newest-torch workflow lists the rows that a new torch changed:

    python -m whatcopy.reference.op_table changed OLD_TRANSCRIPT NEW_TRANSCRIPT

Standard library only, like the recorder: the workflow runs it with nothing but torch installed.
A table whose columns are not the ones below raises :class:`TableError`, so a generator changed
without this reader fails the build with that message instead of drawing a wrong table.
"""

from __future__ import annotations

import argparse
import dataclasses
import doctest
import re
import sys
from pathlib import Path

NAME = "generators/operators"  # the generator's name (whatcopy.core.snippets)
COLUMNS = (
    "operator",
    "aliases",
    "memory",
    "view",
    "grad_fn",
    "schema",
    "schema vs run",
    "in-place",
    "kinds",
    "runs",
)
CAPTION = re.compile(r"^Every entry on (?P<device>\w+):$")
SUMMARY = re.compile(r"^(?P<key>[a-zA-Z][\w -]*): (?P<value>.*)$")
CELL_SPLIT = re.compile(r"(?<!\\) \| ")
SHARED = ("same tensor", "shares")
DEPENDS = "depends: "


class TableError(ValueError):
    """The printed text is not the table this module reads; the message says how."""


@dataclasses.dataclass(frozen=True)
class Row:
    operator: str
    aliases: str  # the entry's other names, ", " between them; "-" for none
    memory: str
    view: str
    grad_fn: str
    schema: str
    verdict: str  # the "schema vs run" column
    in_place: str
    kinds: str  # the kinds of input that ran, ", " between them
    runs: str

    @property
    def anchor(self) -> str:
        """The row's id on the page: ``op-`` and the entry's full name (``op-split.list_args``)."""
        return "op-" + self.operator

    @property
    def alias_names(self) -> list[str]:
        """The entry's other names (``swapaxes`` for ``transpose``)."""
        return [] if self.aliases == "-" else self.aliases.split(", ")

    @property
    def kind_names(self) -> list[str]:
        return [] if self.kinds == "-" else self.kinds.split(", ")

    @property
    def memory_kind(self) -> str:
        """``shares`` (the same tensor or shared bytes), ``copies``, ``depends`` or ``other``."""
        if self.memory in SHARED:
            return "shares"
        if self.memory == "copies":
            return "copies"
        return "depends" if self.memory.startswith(DEPENDS) else "other"

    @property
    def view_kind(self) -> str:
        """``yes`` (autograd tracks it as a view of the input), ``no`` or ``depends``."""
        if self.view == "yes":
            return "yes"
        return "depends" if self.view.startswith(DEPENDS) else "no"

    @property
    def depends(self) -> bool:
        """Whether the runs disagree on memory or view: the answer depends on the input."""
        return self.memory.startswith(DEPENDS) or self.view.startswith(DEPENDS)

    @property
    def disagrees(self) -> bool:
        """Whether the schema's declaration and the runs disagree."""
        return self.verdict.startswith("declares")

    @property
    def in_place_parts(self) -> tuple[str, str]:
        """The in-place column as (answer, the in-place operator's schema or "")."""
        if self.in_place.endswith(")") and " (aten::" in self.in_place:
            answer, _, schema = self.in_place.rpartition(" (")
            return answer, schema[:-1]
        return self.in_place, ""

    @property
    def ran(self) -> bool:
        return self.memory not in ("no dtype", "no samples", "did not run")


@dataclasses.dataclass(frozen=True)
class Table:
    device: str
    summary: dict[str, str]  # the "key: value" lines above the table
    rows: list[Row]

    def row(self, operator: str) -> Row | None:
        return next((row for row in self.rows if row.operator == operator), None)

    def alias_anchors(self) -> dict[str, Row]:
        """``op-<alias>`` -> the row of the entry that declares that alias: the first such entry,
        and only where no row has that name itself (``op-swapaxes`` -> ``transpose``)."""
        taken = {row.anchor for row in self.rows}
        found: dict[str, Row] = {}
        for row in self.rows:
            for alias in row.alias_names:
                anchor = "op-" + alias
                if anchor not in taken and anchor not in found:
                    found[anchor] = row
        return found

    def named(self, name: str) -> list[Row]:
        """The rows a name leads to: its own, its variants' (``split.list_args`` for ``split``)
        and the entry's that declares it as an alias."""
        return [
            row
            for row in self.rows
            if row.operator == name
            or row.operator.startswith(name + ".")
            or name in row.alias_names
        ]


def cells(line: str) -> list[str]:
    """The cells of a ``| a | b |`` line; ``\\|`` inside a cell is a ``|`` of its text."""
    inner = line.strip()
    if not (inner.startswith("| ") and inner.endswith(" |")):
        raise TableError(f"not a table line: {line!r}")
    return [cell.replace("\\|", "|") for cell in CELL_SPLIT.split(inner[2:-2])]


def parse(text: str) -> Table:
    """The table in the generator's printed output."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if CAPTION.match(line)), None)
    if start is None:
        raise TableError("no line 'Every entry on <device>:' above a table")
    summary = {}
    for line in lines[:start]:
        if match := SUMMARY.match(line):
            summary[match["key"]] = match["value"]
    header = tuple(cells(lines[start + 1])) if len(lines) > start + 1 else ()
    if header != COLUMNS:
        raise TableError(f"the table's columns are {header}, this reader expects {COLUMNS}")
    rows = []
    for number, line in enumerate(lines[start + 3 :], start=start + 4):
        if not line.strip():
            break
        values = cells(line)
        if len(values) != len(COLUMNS):
            raise TableError(f"line {number}: {len(values)} cells, not {len(COLUMNS)}: {line!r}")
        rows.append(Row(*values))
    operators = [row.operator for row in rows]
    if len(set(operators)) != len(operators):
        twice = sorted({name for name in operators if operators.count(name) > 1})
        raise TableError(f"operators listed twice: {', '.join(twice)}")
    return Table(CAPTION.match(lines[start])["device"], summary, rows)


def answers(cell: str) -> list[tuple[str, list[str], int]]:
    """A "depends: ..." cell as (answer, the inputs named for it, how many more gave it);
    any other cell as its one answer."""
    if not cell.startswith(DEPENDS):
        return [(cell, [], 0)]
    found = []
    for part in cell[len(DEPENDS) :].split(" · "):
        answer, _, who = part.partition(" for ")
        inputs = who.split("; ")
        more = 0
        if inputs and (match := re.fullmatch(r"(\d+) more", inputs[-1])):
            more, inputs = int(match[1]), inputs[:-1]
        found.append((answer, inputs, more))
    return found


def printed(transcript: Path) -> str:
    """What the program printed, as its transcript records it."""
    text = transcript.read_text(encoding="utf-8")
    return "".join(
        example.want.replace("<BLANKLINE>", "")
        for example in doctest.DocTestParser().get_examples(text)
    )


def changes(old: Table, new: Table) -> list[str]:
    """One line per entry added, removed, or with a cell that differs."""
    before = {row.operator: row for row in old.rows}
    after = {row.operator: row for row in new.rows}
    lines = [f"- `{name}`: new entry" for name in after if name not in before]
    lines += [f"- `{name}`: no longer in the table" for name in before if name not in after]
    for name in (n for n in after if n in before):
        for field, column in zip(dataclasses.fields(Row), COLUMNS, strict=True):
            was, now = getattr(before[name], field.name), getattr(after[name], field.name)
            if was != now:
                lines.append(f"- `{name}`, {column}: {was} -> {now}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The rows that differ between two transcripts")
    parser.add_argument("action", choices=["changed"])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    found = changes(parse(printed(args.old)), parse(printed(args.new)))
    print("\n".join(found) if found else "No row of the operator reference changed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
