"""The claims: what ``generators/claims.py`` prints, read back, and the scope of a citation.

A claim is a general sentence of the site written as a check that the program runs on every
kind of its zoo (``generators/zoo.py``). For each claim and kind it prints ``yes`` (holds),
``no`` (does not hold: what happened) or ``n/a`` (does not apply: why). A page cites a claim
beside its sentence with the role ``{claim}`` (whatcopy/sphinxext/claims.py)::

    {claim}`detach.write-shows-both-ways`                      every kind of the zoo
    {claim}`detach.write-shows-both-ways|except sparse-coo`    all but these kinds (or tags)
    {claim}`clone.keeps-dense-strides|only strided`            only these kinds (or tags)
    {claim}`x.y|only strided|except float32-meta`              both

An item is the name of a kind or a tag that kinds carry (``sparse-coo``, ``complex``,
``inference``); items are separated by commas or spaces. ``check()`` says what is wrong with a
citation: an unknown claim or item, a kind in its scope where the claim does not hold, or an
``except`` item for whose every kind the claim holds after all (stale). A kind where the claim
does not apply does not count against it.

Standard library only, like whatcopy.reference.op_table: tests and workflows read it without Sphinx, and
a printed text whose tables are not the ones below raises TableError.
"""

from __future__ import annotations

import dataclasses
import re

from whatcopy.reference.op_table import TableError, cells, printed  # noqa: F401  (printed: for readers)

NAME = "generators/claims"  # the generator's name (whatcopy.core.snippets)
HOLDS, FAILS, NOT_APPLICABLE = "yes", "no", "n/a"
RESULTS = (HOLDS, FAILS, NOT_APPLICABLE)
CLAIM_COLUMNS = ("claim", "zoo", "holds", "does not hold", "does not apply", "en", "zh")
KIND_COLUMNS = ("kind", "zoo", "tags", "en", "zh", "warnings when made")
OUTCOME_COLUMNS = ("claim", "result", "what happened", "warnings", "kinds")
CAPTIONS = {
    "claims": re.compile(r"^Claims on (?P<device>\w+):$"),
    "kinds": re.compile(r"^Kinds on (?P<device>\w+):$"),
    "results": re.compile(r"^Results on (?P<zoo>\w+) kinds on (?P<device>\w+):$"),
    "outcomes": re.compile(r"^Where a claim does not hold or does not apply, or warned, on \w+:$"),
}
ITEM_SPLIT = re.compile(r"[,\s]+")


@dataclasses.dataclass(frozen=True)
class Claim:
    id: str
    zoo: str
    en: str
    zh: str

    @property
    def anchor(self) -> str:
        return "claim-" + self.id

    def statement(self, language: str) -> str:
        return self.zh if language.startswith("zh") else self.en


@dataclasses.dataclass(frozen=True)
class Kind:
    name: str
    zoo: str
    tags: tuple[str, ...]
    en: str
    zh: str
    warnings: str

    @property
    def anchor(self) -> str:
        return "kind-" + self.name

    def description(self, language: str) -> str:
        return self.zh if language.startswith("zh") else self.en


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What happened to one claim on some kinds: its result, in words, and the warnings."""

    claim: str
    result: str
    what: str
    warnings: str
    kinds: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Table:
    device: str
    claims: dict[str, Claim]
    kinds: dict[str, Kind]
    results: dict[tuple[str, str], str]  # (claim, kind) -> yes / no / n/a
    outcomes: list[Outcome]

    def zoo(self, name: str) -> list[Kind]:
        return [kind for kind in self.kinds.values() if kind.zoo == name]

    def result(self, claim: str, kind: str) -> str:
        return self.results[claim, kind]

    def what(self, claim: str, kind: str) -> str:
        """What happened (or why it does not apply) for that claim on that kind; "" if it held."""
        for outcome in self.outcomes:
            if outcome.claim == claim and kind in outcome.kinds and outcome.result != HOLDS:
                return outcome.what
        return ""

    def kinds_with(self, claim: str, result: str) -> list[str]:
        zoo = self.claims[claim].zoo
        return [k.name for k in self.zoo(zoo) if self.results[claim, k.name] == result]

    def tags(self, zoo: str) -> set[str]:
        return {tag for kind in self.zoo(zoo) for tag in kind.tags}


def _tables(lines: list[str]) -> dict[str, list[tuple[re.Match, list[list[str]]]]]:
    """Each captioned table: its caption's match and its rows (header first, no rule line)."""
    found: dict[str, list] = {key: [] for key in CAPTIONS}
    for index, line in enumerate(lines):
        for key, caption in CAPTIONS.items():
            if match := caption.match(line):
                rows = []
                for number, row in enumerate(lines[index + 1 :], start=index + 2):
                    if not row.strip():
                        break
                    if number != index + 3:  # the | --- | rule under the header
                        rows.append(cells(row))
                found[key].append((match, rows))
    return found


def _rows(name: str, found, columns: tuple[str, ...]) -> list[list[str]]:
    if len(found) != 1:
        raise TableError(f"{len(found)} tables of {name}, not 1")
    _, rows = found[0]
    header = tuple(rows[0]) if rows else ()
    if header != columns:
        raise TableError(f"the {name} table's columns are {header}, this reader expects {columns}")
    for number, row in enumerate(rows[1:], start=1):
        if len(row) != len(columns):
            raise TableError(f"row {number} of the {name} table has {len(row)} cells: {row}")
    return rows[1:]


def parse(text: str) -> Table:
    """The claims, kinds and results in the program's printed output, checked for holes: every
    claim has a result on every kind of its zoo, its counts agree with them, and every result
    other than "yes" has its "what happened"."""
    found = _tables(text.splitlines())
    claims = {
        row[0]: Claim(row[0], row[1], row[5], row[6])
        for row in _rows("claims", found["claims"], CLAIM_COLUMNS)
    }
    counts = {
        row[0]: tuple(map(int, row[2:5])) for row in _rows("claims", found["claims"], CLAIM_COLUMNS)
    }
    kinds = {
        row[0]: Kind(row[0], row[1], tuple(row[2].split()), row[3], row[4], row[5])
        for row in _rows("kinds", found["kinds"], KIND_COLUMNS)
    }
    device = found["claims"][0][0]["device"]
    results: dict[tuple[str, str], str] = {}
    for match, rows in found["results"]:
        zoo = match["zoo"]
        if not rows:
            raise TableError(f"the results on {zoo} kinds have no header")
        header = rows[0]
        expected = ["kind", *(c.id for c in claims.values() if c.zoo == zoo)]
        if header != expected:
            raise TableError(f"the results on {zoo} kinds have columns {header}, not {expected}")
        for row in rows[1:]:
            for claim, result in zip(header[1:], row[1:], strict=True):
                if result not in RESULTS:
                    raise TableError(f"{claim} on {row[0]}: {result!r} is not one of {RESULTS}")
                results[claim, row[0]] = result
    outcomes = [
        Outcome(row[0], row[1], row[2], row[3], tuple(row[4].split()))
        for row in _rows("outcomes", found["outcomes"], OUTCOME_COLUMNS)
    ]
    table = Table(device, claims, kinds, results, outcomes)
    problems = holes(table, counts)
    if problems:
        raise TableError("; ".join(problems))
    return table


def holes(table: Table, counts: dict[str, tuple[int, int, int]]) -> list[str]:
    """What is missing or inconsistent in a table (one line each)."""
    problems = []
    for claim in table.claims.values():
        kinds = table.zoo(claim.zoo)
        if not kinds:
            problems.append(f"{claim.id}: no kinds of its zoo {claim.zoo!r}")
        missing = [k.name for k in kinds if (claim.id, k.name) not in table.results]
        if missing:
            problems.append(f"{claim.id} has no result on {', '.join(missing)}")
            continue
        tally = tuple(len(table.kinds_with(claim.id, r)) for r in RESULTS)
        if tally != counts[claim.id]:
            problems.append(f"{claim.id}: counted {counts[claim.id]}, its results say {tally}")
        for kind in kinds:
            if table.results[claim.id, kind.name] != HOLDS and not table.what(claim.id, kind.name):
                problems.append(f"{claim.id} on {kind.name}: no line says what happened")
    for outcome in table.outcomes:
        for kind in outcome.kinds:
            if table.results.get((outcome.claim, kind)) != outcome.result:
                problems.append(f"{outcome.claim} on {kind}: {outcome.result!r} disagrees")
    return problems


# ---------------------------------------------------------------------------------------------
# Citations


@dataclasses.dataclass(frozen=True)
class Citation:
    """``id|only items|except items``, parsed."""

    claim: str
    only: tuple[str, ...] = ()
    excepted: tuple[str, ...] = ()
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> Citation:
        claim, *clauses = [part.strip() for part in text.split("|")]
        only: list[str] = []
        excepted: list[str] = []
        for clause in clauses:
            word, _, rest = clause.partition(" ")
            items = [item for item in ITEM_SPLIT.split(rest.strip()) if item]
            if word not in ("only", "except") or not items:
                raise ValueError(
                    f"{{claim}}`{text}`: after '|' comes 'only <kinds or tags>' or 'except <kinds "
                    f"or tags>', not {clause!r}"
                )
            (only if word == "only" else excepted).extend(items)
        if not claim:
            raise ValueError(f"{{claim}}`{text}`: no claim id before the first '|'")
        return cls(claim, tuple(only), tuple(excepted), text)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A citation checked against a table: its problems (none when the build may go on) and
    the claim's results on the whole zoo, for the page to show."""

    citation: Citation
    problems: list[str]
    holds: list[str]
    fails: list[str]
    not_applicable: list[str]
    total: int


def matches(kind: Kind, items: tuple[str, ...]) -> bool:
    return kind.name in items or bool(set(kind.tags) & set(items))


def check(citation: Citation, table: Table) -> Verdict:
    """What is wrong with a citation of a claim, against the table (see the module's text)."""
    claim = table.claims.get(citation.claim)
    if claim is None:
        known = ", ".join(table.claims)
        problem = (
            f"no claim {citation.claim!r} in the transcript of generators/claims.py (known: "
            f"{known}); a new claim is recorded with `nox -s record -- generators/claims.py`"
        )
        return Verdict(citation, [problem], [], [], [], 0)
    kinds = table.zoo(claim.zoo)
    names, tags = {k.name for k in kinds}, table.tags(claim.zoo)
    problems = [
        f"{item!r} is neither a kind nor a tag of the {claim.zoo} zoo (generators/zoo.py)"
        for item in citation.only + citation.excepted
        if item not in names and item not in tags
    ]
    in_scope = [
        k
        for k in kinds
        if (not citation.only or matches(k, citation.only)) and not matches(k, citation.excepted)
    ]
    if citation.only and not in_scope and not problems:
        problems.append(f"|only {' '.join(citation.only)} leaves no kind of the {claim.zoo} zoo")
    failing = [k.name for k in in_scope if table.result(claim.id, k.name) == FAILS]
    if failing:
        reasons = {}
        for name in failing:
            reasons.setdefault(table.what(claim.id, name), []).append(name)
        said = "; ".join(f"{', '.join(n)}: {what}" for what, n in reasons.items())
        problems.append(
            f"{claim.id} does not hold for {len(failing)} kind(s) this citation covers ({said}). "
            f"Name them in the citation ({{claim}}`{claim.id}|except {' '.join(failing)}`, or "
            "a tag they share), narrow it with |only, or narrow the sentence"
        )
    for item in citation.excepted:
        named = [
            k
            for k in kinds
            if matches(k, (item,)) and (not citation.only or matches(k, citation.only))
        ]
        if named and all(table.result(claim.id, k.name) != FAILS for k in named):
            problems.append(
                f"|except {item}: {claim.id} does not fail for any kind it names "
                f"({', '.join(k.name for k in named)}): the exception is stale, remove it"
            )
    return Verdict(
        citation,
        problems,
        table.kinds_with(claim.id, HOLDS),
        table.kinds_with(claim.id, FAILS),
        table.kinds_with(claim.id, NOT_APPLICABLE),
        len(kinds),
    )
