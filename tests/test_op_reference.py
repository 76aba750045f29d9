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
import warnings
from collections.abc import Callable

import numpy
import pytest
import torch
import yaml
from project import HTML, LANGUAGES, ROOT, parsed_html

from whatcopy.core import transcripts
from whatcopy.reference import op_table
from whatcopy.sphinxext import op_reference

GENERATOR = transcripts.by_name(op_table.NAME)
FEWEST = 500  # the floor: the table covers at least this many operators
# The kinds of input every entry runs on where it supports them (the program's KINDS)
KINDS = (
    "float32",
    "float64",
    "int64",
    "bool",
    "complex64",
    "complex64-conj",
    "float32-neg",
    "sparse-coo",
    "sparse-csr",
)


@pytest.fixture(scope="module")
def table() -> op_table.Table:
    return op_table.parse(op_table.printed(GENERATOR.transcript("cpu")))


def test_the_table_covers_at_least_500_operators(table):
    ran = [row for row in table.rows if row.ran]
    assert len(ran) >= FEWEST, f"{GENERATOR.transcript('cpu')}: only {len(ran)} entries ran"
    assert table.summary["entries that ran"] == str(len(ran))


def test_the_program_runs_every_kind_of_input(table):
    """The kinds it names are the ones the site asks for, and clone, which takes every one of
    them here, ran on each."""
    where = f"{GENERATOR.rel} (KINDS), {GENERATOR.transcript('cpu')}"
    assert tuple(table.summary["kinds of input"].split(", ")) == KINDS, where
    assert tuple(table.row("clone").kind_names) == KINDS, where


# ---------------------------------------------------------------------------------------------
# Named rows against executed expectations


def blocks(value) -> list[tuple[int, int]]:
    """(first byte, end) of each block of memory a tensor's elements (a sparse tensor's indices
    and values) or a NumPy array's live in."""
    if isinstance(value, numpy.ndarray):
        start = value.__array_interface__["data"][0]
        return [(start, start + value.nbytes)]
    if value.layout == torch.sparse_coo:
        parts = [value._indices(), value._values()]
    elif value.layout == torch.sparse_csr:
        parts = [value.crow_indices(), value.col_indices(), value.values()]
    else:
        parts = [value]
    storages = [part.untyped_storage() for part in parts]
    return [(s.data_ptr(), s.data_ptr() + s.nbytes()) for s in storages]


def memory_answer(result, x) -> str:
    """What the generator's memory column calls this result: the same tensor, shared bytes of
    memory, or a copy."""
    if result is x:
        return "same tensor"
    overlaps = any(a < d and c < b for a, b in blocks(result) for c, d in blocks(x))
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
    """`executed` is one of the cell's answers, and each float32 input it names for it (at least
    one) has `layout`."""

    def agrees(row):
        named = [inputs for a, inputs, _ in op_table.answers(getattr(row, column)) if a == executed]
        named = [i for i in (named or [[]])[0] if "float32" in i.split(" ")]
        return bool(named) and all(i.startswith(layout) for i in named)

    return agrees


def gives(cell: str, kind: str) -> set[str]:
    """The answers a cell gives for a kind of input: its one answer, or those of a "depends"
    cell that name the kind itself or an input of that kind ("transposed float32 (5, 5)")."""
    parts = op_table.answers(cell)
    if len(parts) == 1:
        return {cell}
    return {a for a, inputs, _ in parts if any(kind in i.split(" ") for i in inputs)}


def for_kind(column: str, executed: str, kind: str) -> Callable[[op_table.Row], bool]:
    """The cell gives `executed`, and nothing else, for the kind."""
    return lambda row: gives(getattr(row, column), kind) == {executed}


def conj_bit(z: torch.Tensor) -> torch.Tensor:
    return z.conj_physical().conj().detach()


def expectations() -> list[Expectation]:
    """The rows the issue names, which the page's prose relies on, each against a fresh run,
    in the kinds of input that change the answer."""
    x = torch.randn(2, 3)  # contiguous
    xt = torch.randn(3, 2).t()  # transposed
    z = torch.randn(2, 3, dtype=torch.complex64)
    d = torch.randn(2, 3, dtype=torch.float64)
    sparse = torch.randn(2, 3).to_sparse()
    counter = torch.zeros(3)
    before = counter._version
    counter.add_(1)
    moved = f"+{counter._version - before}"
    reshaped = {memory_answer(x.reshape(6), x), memory_answer(xt.reshape(6), xt)}
    view, t, expand, detach = x.view(6), x.t(), x.expand(2, 2, 3), x.detach()
    by_dtype, conj = x.view(torch.int32), conj_bit(z)
    zeroed = torch.randn(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "To copy construct from a tensor, it is recommended..."
        constructed = torch.tensor(x)
    return [
        Expectation("view", "x.view(6)", m := memory_answer(view, x), cell_is("memory", m)),
        Expectation("view", "x.view(6)", v := view_answer(view, x), cell_is("view", v)),
        Expectation("t", "x.t()", m := memory_answer(t, x), for_kind("memory", m, "float32")),
        Expectation("t", "x.t()", v := view_answer(t, x), cell_is("view", v)),
        Expectation(
            "t",
            "s.t() of a sparse COO s",
            m := memory_answer(sparse.t(), sparse),
            for_kind("memory", m, "sparse-coo"),
        ),
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
        Expectation(
            "real",
            "x.real, float32",
            m := memory_answer(x.real, x),
            for_kind("memory", m, "float32"),
        ),
        Expectation(
            "real",
            "z.real, complex64",
            m := memory_answer(z.real, z),
            for_kind("memory", m, "complex64"),
        ),
        Expectation(
            "real",
            "z.real, complex64",
            v := view_answer(z.real, z),
            for_kind("view", v, "complex64"),
        ),
        Expectation(
            "float",
            "x.float(), float32",
            m := memory_answer(x.float(), x),
            for_kind("memory", m, "float32"),
        ),
        Expectation(
            "float",
            "d.float(), float64",
            m := memory_answer(d.float(), d),
            for_kind("memory", m, "float64"),
        ),
        Expectation(
            "double",
            "d.double(), float64",
            m := memory_answer(d.double(), d),
            for_kind("memory", m, "float64"),
        ),
        Expectation(
            "resolve_conj",
            "c.resolve_conj() of a conjugate-bit c",
            m := memory_answer(conj.resolve_conj(), conj),
            for_kind("memory", m, "complex64-conj"),
        ),
        Expectation(
            "zero_", "x.zero_()", m := memory_answer(zeroed.zero_(), zeroed), cell_is("memory", m)
        ),
        Expectation(
            "view.dtype",
            "x.view(torch.int32)",
            m := memory_answer(by_dtype, x),
            cell_is("memory", m),
        ),
        Expectation(
            "view.dtype", "x.view(torch.int32)", v := view_answer(by_dtype, x), cell_is("view", v)
        ),
        Expectation("numpy", "x.numpy()", m := memory_answer(x.numpy(), x), cell_is("memory", m)),
        Expectation(
            "tensor",
            "torch.tensor(x)",
            m := memory_answer(constructed, x),
            cell_is("memory", m),
        ),
        Expectation(
            "values",
            "s.values() of a sparse COO s",
            m := memory_answer(sparse.values(), sparse),
            for_kind("memory", m, "sparse-coo"),
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
    [
        ("view", "memory", "copies"),
        ("detach", "view", "yes"),
        ("add", "in_place", "+0"),
        ("real", "memory", "same tensor"),
        ("zero_", "memory", "copies"),
    ],
)
def test_a_row_altered_against_its_execution_fails_with_its_name(table, operator, column, altered):
    row = table.row(operator)
    changed = dataclasses.replace(row, **{column: altered})
    rows = [changed if r is row else r for r in table.rows]
    problems = contradictions(dataclasses.replace(table, rows=rows))
    assert len(problems) == 1 and problems[0].startswith(f"{operator}: the row"), problems


# ---------------------------------------------------------------------------------------------
# The schema cell names the operator that ran on the input

# Calls the table has rows for, as a learner writes them: name -> call on a float32 x
CALLS = {
    "T": lambda x: x.T,
    "H": lambda x: x.H,
    "mT": lambda x: x.mT,
    "zero_": lambda x: x.zero_(),
    "resize_": lambda x: x.resize_(6),
    "cauchy": lambda x: x.cauchy_(),
    "copy_": lambda x: torch.empty_like(x).copy_(x),
    "view.dtype": lambda x: x.view(torch.int32),
    "detach": lambda x: x.detach(),
    "data": lambda x: x.data,
    "cpu": lambda x: x.cpu(),
    "__getitem__": lambda x: x[0],
}


ATEN_OF = {"T": "numpy_T", "H": "matrix_H"}  # properties whose operator has another name


def operators_run(call: Callable) -> list[str]:
    """The ATen operators a call on a float32 x runs, in order, as torch's profiler records them
    ("aten::numpy_T", then what it calls)."""
    x = torch.randn(2, 3)
    with torch.autograd.profiler.profile(use_kineto=False) as profiled:
        call(x)
    return [event.name for event in profiled.function_events if event.name.startswith("aten::")]


def wrong_schemas(table: op_table.Table) -> list[str]:
    """One line per row of CALLS whose schema cell is not that of the first operator named like
    the row that the call ran, or is not "-" where it ran none."""
    problems = []
    for name, call in CALLS.items():
        row, ran = table.row(name), operators_run(call)
        if row is None:
            problems.append(f"{name}: no row in the table")
            continue
        stem = ATEN_OF.get(name, name.split(".")[0].rstrip("_"))
        own = next((n for n in ran if n.removeprefix("aten::").rstrip("_") == stem), None)
        named = row.schema.split(" -> ")[0] if row.schema != "-" else None
        if named != own:
            problems.append(
                f"{name}: the schema cell is {row.schema!r}; the call ran {ran or 'no operator'}"
                + (f", {own} named like the row" if own else ", none named like the row: -")
            )
    return problems


def test_each_schema_names_the_operator_that_ran_on_the_input(table):
    """T and H are aten::numpy_T and aten::matrix_H, zero_ and cauchy run their own in-place
    operators (not the database's x.clone().zero_()), __getitem__ is no TorchScript lookup,
    .data runs no operator: the first ATen operator torch's profiler records for each call."""
    problems = wrong_schemas(table)
    assert not problems, f"{GENERATOR.transcript('cpu')} ({GENERATOR.rel}):\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("operator", "schema"),
    [("zero_", "aten::clone -> Tensor"), ("T", "-"), ("__getitem__", "aten::__getitem__ -> t(*)")],
)
def test_a_schema_cell_altered_fails_with_its_name(table, operator, schema):
    row = table.row(operator)
    rows = [dataclasses.replace(r, schema=schema) if r is row else r for r in table.rows]
    problems = wrong_schemas(dataclasses.replace(table, rows=rows))
    assert len(problems) == 1 and problems[0].startswith(f"{operator}: the schema"), problems


# ---------------------------------------------------------------------------------------------
# PyTorch's own list of views (tests/tensor_views.yaml), against the table and the page

TENSOR_VIEWS = ROOT / "tests" / "tensor_views.yaml"
EXPLAINED = "operators-pytorch-views"  # the section of the page that explains each difference


def pytorch_views() -> dict:
    return yaml.safe_load(TENSOR_VIEWS.read_text(encoding="utf-8"))


def differences(table: op_table.Table, listed: dict) -> tuple[list[str], dict[str, str]]:
    """(the names PyTorch lists that have no row, {row: how it differs from PyTorch's list})."""
    missing, differ = [], {}
    for name in listed["views"]:
        rows = table.named(name)
        missing += [] if rows else [name]
        for row in rows:
            if not (row.memory_kind == "shares" and row.view == "yes"):
                differ[row.operator] = f"listed as a view; memory {row.memory!r}, view {row.view!r}"
    expected = {
        "indexing": ({"shares", "copies"}, {"yes", "no"}),  # basic indexing a view, advanced a copy
        "either_view_or_copy": ({"shares", "copies"}, {"yes", "no"}),
        "itself_or_copy": ({"same tensor", "copies"}, {"no"}),
    }
    for group, (memory, view) in expected.items():
        for name in listed[group]:
            rows = table.named(name)
            missing += [] if rows else [name]
            for row in rows:
                given = {a for a, _, _ in op_table.answers(row.memory)}
                views = {a for a, _, _ in op_table.answers(row.view)}
                if given != memory or views != view:
                    differ[row.operator] = (
                        f"PyTorch: {group.replace('_', ' ')}; memory {sorted(given)}, view {sorted(views)}"
                    )
    return missing, differ


def unexplained(differ: dict[str, str]) -> list[str]:
    """The differences whose operator the page's section EXPLAINED does not name (as code), in
    either language."""
    problems = []
    for language in LANGUAGES:
        section = page(language).find(id=EXPLAINED)
        named = {code.get_text() for code in section.find_all("code")} if section else set()
        for operator, how in differ.items():
            if operator not in named:
                problems.append(
                    f"docs/{language}/operators.md, section ({EXPLAINED})=: `{operator}` is not "
                    f"explained ({how})"
                )
    return problems


def test_every_view_pytorch_lists_has_a_row_and_each_difference_is_explained(table):
    """Every name in PyTorch's list of views (tests/tensor_views.yaml: its page's source, at a
    commit) has a row (its own, a variant's, or as an alias); a row that answers otherwise than
    the list (detach: PyTorch calls it a view, its View is _is_view(), False; a kind of input
    that copies) is named, as code, in the page's section that explains why, in both languages."""
    listed = pytorch_views()
    assert listed["source"].endswith(listed["commit"] + "/docs/source/tensor_view.md")
    missing, differ = differences(table, listed)
    assert not missing, f"{GENERATOR.transcript('cpu')}: no row for {missing} ({TENSOR_VIEWS})"
    assert "detach" in differ, differ
    problems = unexplained(differ)
    assert not problems, "\n".join(problems)


def test_an_unexplained_difference_from_pytorchs_list_fails(table):
    """A row altered so that permute no longer reads as a view: nothing on the page explains it."""
    row = table.row("permute")
    rows = [dataclasses.replace(r, view="no") if r is row else r for r in table.rows]
    _, differ = differences(dataclasses.replace(table, rows=rows), pytorch_views())
    problems = unexplained(differ)
    assert len(problems) == len(LANGUAGES), problems
    assert all("`permute` is not explained" in p for p in problems), problems


# ---------------------------------------------------------------------------------------------
# The pages


def page(language: str):
    return parsed_html(HTML / LANGUAGES[language][0] / "operators.html")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_row_is_on_the_page_with_its_anchor_and_name(table, language):
    """Every row, in order, carries its operator's anchor and the name as text (the page's
    script links it to the row: tests/test_browser.py), then its aliases; its data (what the
    filters read) is the transcript's."""
    rows = page(language).select("#op-table tbody tr")
    assert [r["id"] for r in rows] == [row.anchor for row in table.rows]
    for shown, row in zip(rows, table.rows, strict=True):
        name = shown.select_one("th")
        text = row.operator + (f" ({', '.join(row.alias_names)})" if row.alias_names else "")
        assert name.get_text() == text, row
        assert (shown["data-m"], shown["data-v"]) == (row.memory_kind, row.view_kind), row
        assert ("data-d" in shown.attrs, "data-s" in shown.attrs) == (row.depends, row.disagrees)
    ids = [tag["id"] for tag in page(language).find_all(id=True)]
    assert len(ids) == len(set(ids)), "ids used twice"


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_alias_leads_to_its_entrys_row(table, language):
    """swapaxes, swapdims (transpose), moveaxis (movedim), adjoint (mH) and every other alias
    the database declares: an anchor of its own inside the row of its entry."""
    shown = page(language)
    anchors = table.alias_anchors()
    assert {"op-swapaxes", "op-swapdims", "op-moveaxis", "op-adjoint"} <= set(anchors)
    for anchor, row in anchors.items():
        found = shown.find(id=anchor)
        assert found is not None, (
            f"whatcopy/sphinxext/op_reference.py: no {anchor} on {language}/operators.html"
        )
        assert found.find_parent("tr")["id"] == row.anchor, anchor


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
    note = shown.select_one(".op-cuda-note")
    assert "CUDA" in note.get_text() and not note.code and "nox" not in note.get_text(), note
    assert len(shown.select("#op-table thead th")) == len(op_reference.DRAWN)


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
    text = re.sub(
        r"^\| view \| - \| shares \|", f"| view | - | {view_memory} |", text, flags=re.MULTILINE
    )
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
        assert len(soup.select("thead th")) == len(op_reference.DRAWN)
        assert not soup.select("td.op-differs")
        note = soup.select_one(".op-cuda-note")
        assert not note.code and "nox" not in note.get_text() and "NVIDIA" not in note.get_text()
        assert env.dependencies == ([str(GENERATOR.transcript("cuda"))] if present else [])


def test_a_cuda_transcript_that_arrives_makes_the_page_outdated(table, transcript_dir):
    """Sphinx cannot depend on a file that does not exist yet: the extension keeps a key."""
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
