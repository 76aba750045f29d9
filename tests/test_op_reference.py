"""The operator reference (generators/operators.py, docs/*/operators.md): its rows agree with
what the same operators do when run here, each row is on both pages with its own anchor, and the
program stops with a clear message when what it relies on in torch.testing._internal changes.

The rows are read from the generator's CPU transcript, which tests/test_transcripts.py checks
against a fresh run of the generator, and which the built pages show (tests/test_build.py).
"""

from __future__ import annotations

import ast
import dataclasses
import gzip
import re
import sys
import types
from collections.abc import Callable

import pytest
import torch
from project import HTML, LANGUAGES, ROOT, parsed_html

from whatcopy.core import transcripts
from whatcopy.reference import op_table

GENERATOR = transcripts.by_name(op_table.NAME)
FEWEST = 500  # the floor: the table covers at least this many operators


@pytest.fixture(scope="module")
def table() -> op_table.Table:
    return op_table.parse(op_table.printed(GENERATOR.transcript("cpu")))


def test_the_table_covers_at_least_500_operators(table):
    ran = [row for row in table.rows if row.ran]
    assert len(ran) >= FEWEST, f"{GENERATOR.transcript('cpu')}: only {len(ran)} entries ran"
    assert table.summary["entries that ran"] == str(len(ran))


# ---------------------------------------------------------------------------------------------
# Named rows against executed expectations


def memory_answer(result: torch.Tensor, x: torch.Tensor) -> str:
    """What the generator's memory column calls this result: the same tensor, shared bytes of
    storage, or a copy."""
    if result is x:
        return "same tensor"
    a, b = result.untyped_storage(), x.untyped_storage()
    start, other = a.data_ptr(), b.data_ptr()
    overlaps = start < other + b.nbytes() and other < start + a.nbytes()
    return "shares" if overlaps else "copies"


def view_answer(result: torch.Tensor, x: torch.Tensor) -> str:
    return "yes" if result._is_view() and result._base is x else "no"


@dataclasses.dataclass(frozen=True)
class Expectation:
    """One execution here, what it gave, and whether a row agrees with that."""

    operator: str
    execution: str  # in words, for the failure message
    executed: str  # what it gave
    agrees: Callable[[op_table.Row], bool]


def cell_is(column: str, executed: str) -> Callable[[op_table.Row], bool]:
    return lambda row: getattr(row, column) == executed


def answer_for(column: str, executed: str, layout: str) -> Callable[[op_table.Row], bool]:
    """`executed` is one of the cell's answers, and each input it names for it has `layout`."""

    def agrees(row):
        named = [inputs for a, inputs, _ in op_table.answers(getattr(row, column)) if a == executed]
        return bool(named) and all(i.startswith(layout) for i in named[0])

    return agrees


def expectations() -> list[Expectation]:
    """The rows the issue names, which the page's prose relies on, each against a fresh run."""
    x = torch.randn(2, 3)  # contiguous
    xt = torch.randn(3, 2).t()  # transposed
    counter = torch.zeros(3)
    before = counter._version
    counter.add_(1)
    moved = f"+{counter._version - before}"
    reshaped = {memory_answer(x.reshape(6), x), memory_answer(xt.reshape(6), xt)}
    view, t, expand, detach = x.view(6), x.t(), x.expand(2, 2, 3), x.detach()
    return [
        Expectation("view", "x.view(6)", m := memory_answer(view, x), cell_is("memory", m)),
        Expectation("view", "x.view(6)", v := view_answer(view, x), cell_is("view", v)),
        Expectation("t", "x.t()", m := memory_answer(t, x), cell_is("memory", m)),
        Expectation("t", "x.t()", v := view_answer(t, x), cell_is("view", v)),
        Expectation(
            "clone", "xt.clone()", m := memory_answer(xt.clone(), xt), cell_is("memory", m)
        ),
        Expectation(
            "contiguous",
            "xt.contiguous() of a transposed xt",
            m := memory_answer(xt.contiguous(), xt),
            answer_for("memory", m, "transposed"),
        ),
        Expectation(
            "contiguous",
            "x.contiguous() of a contiguous x",
            m := memory_answer(x.contiguous(), x),
            answer_for("memory", m, "contiguous"),
        ),
        Expectation(
            "reshape",
            "x.reshape(6) and xt.reshape(6)",
            " and ".join(sorted(reshaped)),
            lambda row: row.depends and {a for a, _, _ in op_table.answers(row.memory)} >= reshaped,
        ),
        Expectation(
            "expand", "x.expand(2, 2, 3)", m := memory_answer(expand, x), cell_is("memory", m)
        ),
        Expectation("detach", "x.detach()", m := memory_answer(detach, x), cell_is("memory", m)),
        Expectation("detach", "x.detach()", v := view_answer(detach, x), cell_is("view", v)),
        Expectation(
            "add", "x.add_(1), x._version", moved, lambda row: row.in_place_parts[0] == moved
        ),
    ]


def contradictions(table: op_table.Table) -> list[str]:
    """One line per named row that disagrees with its execution here, naming the operator."""
    problems = []
    for expected in expectations():
        row = table.row(expected.operator)
        if row is None:
            problems.append(f"{expected.operator}: no row in the table")
        elif not expected.agrees(row):
            problems.append(
                f"{expected.operator}: the row (memory {row.memory!r}, view {row.view!r}, "
                f"in-place {row.in_place!r}) contradicts {expected.execution}, which gave "
                f"{expected.executed} here"
            )
    return problems


def test_the_named_rows_agree_with_running_those_operators_here(table):
    """view and t share memory and are views; clone copies a transposed input, contiguous
    copies it and returns a contiguous one itself; reshape depends on the input; expand shares;
    detach shares without being a view; add_ moves the version counter (by as much as it does
    here)."""
    problems = contradictions(table)
    assert not problems, f"{GENERATOR.transcript('cpu')}:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("operator", "column", "altered"),
    [("view", "memory", "copies"), ("detach", "view", "yes"), ("add", "in_place", "+0")],
)
def test_a_row_altered_against_its_execution_fails_with_its_name(table, operator, column, altered):
    row = table.row(operator)
    changed = dataclasses.replace(row, **{column: altered})
    rows = [changed if r is row else r for r in table.rows]
    problems = contradictions(dataclasses.replace(table, rows=rows))
    assert len(problems) == 1 and problems[0].startswith(f"{operator}: the row"), problems


# ---------------------------------------------------------------------------------------------
# The pages


def page(language: str):
    return parsed_html(HTML / LANGUAGES[language][0] / "operators.html")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_row_is_on_the_page_with_its_anchor_and_name(table, language):
    """Every row, in order, carries its operator's anchor, a link to it, and the name as text;
    its data (what the filters read) is the transcript's."""
    rows = page(language).select("#op-table tbody tr")
    assert [r["id"] for r in rows] == [row.anchor for row in table.rows]
    for shown, row in zip(rows, table.rows, strict=True):
        name = shown.select_one("th")
        assert name.get_text() == row.operator and name.a["href"] == f"#{row.anchor}", row
        assert (shown["data-m"], shown["data-v"]) == (row.memory_kind, row.view_kind), row
        assert ("data-d" in shown.attrs, "data-s" in shown.attrs) == (row.depends, row.disagrees)
    ids = [tag["id"] for tag in page(language).find_all(id=True)]
    assert len(ids) == len(set(ids)), "ids used twice"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_views_page_links_to_the_row_of_reshape(language):
    """Other pages link into the table by row (the anchors are registered with Sphinx);
    test_site_html checks that every such link resolves."""
    folder = HTML / LANGUAGES[language][0]
    links = [a["href"] for a in parsed_html(folder / "views.html").find_all("a", href=True)]
    assert "operators.html#op-reshape" in links
    assert page(language).find(id="op-reshape") is not None


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_a_cuda_transcript_the_page_says_so_and_has_no_cuda_column(language):
    if GENERATOR.transcript("cuda").exists():
        pytest.skip("a CUDA transcript exists: the column test below applies")
    shown = page(language)
    assert shown.select_one(".op-cuda-note code").get_text() == "nox -s cuda -- record"
    assert len(shown.select("#op-table thead th")) == len(op_table.COLUMNS)


@pytest.fixture
def transcript_dir(tmp_path, monkeypatch):
    """Transcripts are read from tmp_path/<device>/... instead of transcripts/."""
    monkeypatch.setattr(
        transcripts.Snippet,
        "transcript",
        lambda self, device: tmp_path / device / f"{self.name}.txt",
    )
    return tmp_path


class BuildEnv:
    """What op_reference reads of Sphinx's environment, and its record of the page."""

    def __init__(self, language: str):
        self.config = types.SimpleNamespace(language=language)
        self.docname = "operators"
        self.dependencies: list[str] = []

    def note_dependency(self, path: str) -> None:
        self.dependencies.append(path)


def fake_cuda_transcript(folder, *, source_sha: str | None = None, view_memory: str = "copies"):
    """The generator's CPU transcript as if a GPU had recorded it, `view` copying there."""
    text = (ROOT / "transcripts" / "cpu" / f"{GENERATOR.name}.txt").read_text(encoding="utf-8")
    text = text.replace("Device: cpu (x86_64)", "Device: cuda (NVIDIA Test GPU)")
    text = text.replace("Every entry on cpu:", "Every entry on cuda:")
    text = re.sub(r"^\| view \| shares \|", f"| view | {view_memory} |", text, flags=re.MULTILINE)
    if source_sha is not None:
        head, tail = text.split("Source-SHA256: ", 1)
        text = head + "Source-SHA256: " + source_sha + tail[64:]
    path = folder / "cuda" / f"{GENERATOR.name}.txt"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")


def drawn(table, language: str = "en"):
    """The table drawn for a build in `language`, from its first rows and view's (enough here,
    and the whole table takes seconds to parse)."""
    from bs4 import BeautifulSoup

    from whatcopy.sphinxext import op_reference

    env = BuildEnv(language)
    few = dataclasses.replace(table, rows=table.rows[:20] + [table.row("view")])
    soup = BeautifulSoup(op_reference.reference_html(env, few), "html.parser")
    return soup, env


def test_a_current_cuda_transcript_adds_a_cuda_column(table, transcript_dir):
    """Drawn from that transcript, with a mark where CUDA's answer differs from the CPU's."""
    fake_cuda_transcript(transcript_dir)
    soup, env = drawn(table)
    assert [th.get_text() for th in soup.select("thead th")][-1] == "CUDA"
    assert "NVIDIA Test GPU" in soup.select_one(".op-cuda-note").get_text()
    differing = [td.parent["id"] for td in soup.select("td.op-differs")]
    assert differing == ["op-view"], differing
    assert str(GENERATOR.transcript("cuda")) in env.dependencies  # a changed one rebuilds


def test_without_a_current_cuda_transcript_there_is_no_cuda_column(table, transcript_dir):
    for present in (False, True):  # none, then one recorded for an earlier generator
        if present:
            fake_cuda_transcript(transcript_dir, source_sha="0" * 64)
        soup, env = drawn(table)
        assert len(soup.select("thead th")) == len(op_table.COLUMNS)
        assert not soup.select("td.op-differs")
        note = soup.select_one(".op-cuda-note")
        assert note.code.get_text() == "nox -s cuda -- record" and "NVIDIA" not in note.get_text()
        assert env.dependencies == ([str(GENERATOR.transcript("cuda"))] if present else [])


def test_a_cuda_transcript_that_arrives_makes_the_page_outdated(table, transcript_dir):
    """Sphinx cannot depend on a file that does not exist yet: the extension keeps a key."""
    from whatcopy.sphinxext import op_reference

    _, env = drawn(table)
    assert op_reference.outdated_pages(None, env, set(), set(), set()) == []
    fake_cuda_transcript(transcript_dir)
    assert op_reference.outdated_pages(None, env, set(), set(), set()) == ["operators"]


def test_the_page_weighs_at_most_60_kb_compressed():
    """The page itself, as a first view fetches it (gzip); the browser test counts requests."""
    for language in LANGUAGES:
        path = HTML / LANGUAGES[language][0] / "operators.html"
        size = len(gzip.compress(path.read_bytes(), compresslevel=6))
        assert size <= 60 * 1024, f"{path}: {size / 1024:.1f} KB gzip"


# ---------------------------------------------------------------------------------------------
# torch.testing._internal is not a public API: what the generator relies on is checked first


def definitions() -> dict:
    """The generator's functions and settings, without running it (its top-level statements
    from `database = check_database()` on are left out)."""
    tree = ast.parse(GENERATOR.source)
    body = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.value) == "check_database()":
            break
        body.append(node)
    namespace: dict = {"__name__": "definitions"}
    exec(compile(ast.Module(body, []), GENERATOR.rel, "exec"), namespace)  # noqa: S102  (its own source)
    return namespace


def test_a_missing_opinfo_attribute_stops_the_generator_naming_it(monkeypatch):
    """check_database() against a stand-in for the database module whose entries lack one
    attribute the generator pins: it names the entry, the attribute and the torch version."""
    generator = definitions()
    attributes = [a for a in generator["OPINFO_ATTRIBUTES"] if a != "aten_name"]
    entry = types.SimpleNamespace(**{**dict.fromkeys(attributes), "name": "abs"})
    module = types.ModuleType("stand_in_opinfo")
    module.op_db = [entry]
    monkeypatch.setitem(sys.modules, "stand_in_opinfo", module)
    monkeypatch.setitem(generator, "DATABASE_MODULE", "stand_in_opinfo")
    pattern = r"generators/operators.py \(torch .*\): the OpInfo entry 'abs' has no aten_name"
    with pytest.raises(RuntimeError, match=pattern):
        generator["check_database"]()
    module.op_db = {}
    with pytest.raises(RuntimeError, match="stand_in_opinfo.op_db is no longer a list"):
        generator["check_database"]()


def test_a_table_with_rows_missing_stops_the_generator():
    """The guard after the rows are made, run on rows of which too few ran."""
    guards = [
        node
        for node in ast.parse(GENERATOR.source).body
        if isinstance(node, ast.If) and "FEWEST_RUN" in ast.unparse(node.test)
    ]
    assert len(guards) == 1, f"{GENERATOR.rel}: the guard on the number of rows is gone"
    namespace = definitions()
    rows = [["op", "did not run"] + ["-"] * 6] * 700 + [["op", "copies"] + ["-"] * 6] * 10
    namespace.update(rows=rows, ran=[r for r in rows if r[1] == "copies"], sampled=rows)
    with pytest.raises(RuntimeError, match=r"only 10 of 710 OpInfo entries ran"):
        exec(compile(ast.Module(guards, []), GENERATOR.rel, "exec"), namespace)  # noqa: S102


def test_the_reader_refuses_a_table_whose_columns_changed(table):
    text = op_table.printed(GENERATOR.transcript("cpu")).replace("| runs |", "| calls |", 1)
    with pytest.raises(op_table.TableError, match="columns are"):
        op_table.parse(text)


def test_the_changed_rows_report_names_each_cell_that_moved(table):
    """What the weekly newest-torch workflow prints (python -m whatcopy.reference.op_table changed)."""
    row = table.row("contiguous")
    moved = dataclasses.replace(row, memory="copies")
    new = dataclasses.replace(table, rows=[moved if r is row else r for r in table.rows][1:])
    lines = op_table.changes(table, new)
    assert f"- `contiguous`, memory: {row.memory} -> copies" in lines
    assert f"- `{table.rows[0].operator}`: no longer in the table" in lines
    assert len(lines) == 2, lines


def test_the_generator_is_kept_apart_from_the_teachers_snippets():
    """Not in snippets/ (whose snippets need only torch and numpy), not in the zip."""
    assert GENERATOR.path.parent == ROOT / "generators"
    assert GENERATOR.name not in {s.name for s in transcripts.all_snippets()}
