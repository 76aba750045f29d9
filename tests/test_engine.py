"""The one execution engine: a page's cells show their snippets' runs, made on the fork server
(whatcopy/core/runner.py, page_run) and kept in the build folder (whatcopy/core/runs.py), as a
Jupyter kernel executing the page would show them; each snippet runs once until it changes."""

from __future__ import annotations

import json

import nbformat
import pytest

from whatcopy.core import runner, runs, transcripts
from whatcopy.execution import notebooks

PRINTS = '''\
"""Prints."""
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print("x:", x)
print("sum:", x.sum().item())
'''
RAISES = '''\
"""Raises what it declares."""
import torch

print("before")
torch.ones(2) @ torch.ones(3)  # raises RuntimeError
'''
BROKEN = '''\
"""Raises what it does not declare, and warns."""
import warnings

warnings.warn("careful")
print("printed")
{}["missing"]
print("never")
'''


@pytest.fixture
def project(tmp_path):
    """A project of three snippets (snippets/demo/), worked on while the test runs."""
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True)
    for name, text in {"prints": PRINTS, "raises": RAISES, "broken": BROKEN}.items():
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    (tmp_path / "generators").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    previous = transcripts.set_root(tmp_path)
    try:
        yield tmp_path
    finally:
        transcripts.set_root(previous)


def snippet(project, name: str) -> transcripts.Snippet:
    return transcripts.Snippet(project / "snippets" / "demo" / f"{name}.py")


def kernel_outputs(project, names: list[str]) -> list[list[dict]]:
    """The snippets' files as the cells of one notebook, executed by a new ipykernel as the site
    used to execute its pages (IPython's `Minimal` tracebacks), each cell's outputs with each
    stream's chunks joined as written."""
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                snippet(project, name).source, metadata={"tags": ["raises-exception"]}
            )
            for name in names
        ]
    )
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        resources={"metadata": {"path": str(project)}},
        extra_arguments=["--InteractiveShell.xmode=Minimal"],
        shutdown_kernel="immediate",
    ).execute()
    cells = []
    for cell in notebook.cells:
        outputs, streams = [], {}
        for output in cell.outputs:
            output = json.loads(json.dumps(output))  # (plain dicts)
            if output["output_type"] == "stream" and output["name"] in streams:
                streams[output["name"]]["text"] += output["text"]
                continue
            if output["output_type"] == "stream":
                streams[output["name"]] = output
            outputs.append(output)
        cells.append(outputs)
    return cells


@pytest.mark.slow  # starts a Jupyter kernel
def test_a_run_shows_what_a_jupyter_kernel_shows(project):
    """The outputs page_run gives (a snippet that prints; one that prints and raises what it
    declares) are, byte for byte, what an ipykernel executing the snippets as cells gives."""
    names = ["prints", "raises"]
    server = runner.ForkServer("cpu", compiler=False)
    try:
        ran = [runner.page_run(snippet(project, name), "cpu", server) for name in names]
    finally:
        server.close()
    assert [run["problems"] for run in ran] == [[], []], ran
    assert [run["outputs"] for run in ran] == kernel_outputs(project, names)


def test_a_run_names_the_problems_of_a_broken_snippet_from_the_same_run(project):
    """An undeclared exception and a warning on stderr are problems naming the file and line;
    the outputs stop where a kernel's would (at the exception), and stderr is not among them."""
    run = runner.page_run(snippet(project, "broken"))
    problems = "\n".join(run["problems"])
    assert "snippets/demo/broken.py:6: unexpected KeyError" in problems, problems
    assert "wrote to stderr" in problems and "careful" in problems, problems
    assert run["outputs"] == [
        {"output_type": "stream", "name": "stdout", "text": "printed\n"},
        {
            "output_type": "error",
            "ename": "KeyError",
            "evalue": "'missing'",
            "traceback": ["\x1b[31mKeyError\x1b[39m\x1b[31m:\x1b[39m 'missing'\n"],
        },
    ], run["outputs"]


def test_each_snippet_runs_once_until_it_or_torch_changes(project, tmp_path, monkeypatch):
    """run_missing runs a snippet that has no run, keeps the run, and runs it again only when
    its source or the versions change, or (unless told otherwise) when its last run failed."""
    build = tmp_path / "build"
    every = [snippet(project, name) for name in ("prints", "raises", "broken")]
    names = lambda ran: sorted(s.name for s in ran)

    assert names(runs.run_missing(every + every, build)) == [
        "demo/broken",
        "demo/prints",
        "demo/raises",
    ]
    assert not list(build.rglob("*.part")), "a run was left half-written"
    assert runs.load(build, every[0])["outputs"][0]["text"].startswith("x: ")
    assert names(runs.run_missing(every, build, again_if_failed=False)) == []
    assert names(runs.run_missing(every, build)) == ["demo/broken"]  # failed: run again

    path = every[0].path
    path.write_text(path.read_text() + 'print("edited")\n', encoding="utf-8")
    assert runs.load(build, every[0]) is None, "an edited snippet's old run is still current"
    assert names(runs.run_missing(every, build, again_if_failed=False)) == ["demo/prints"]
    assert runs.load(build, every[0])["outputs"][0]["text"].endswith("edited\n")

    monkeypatch.setattr(runs, "_version", lambda name: "99.0" if name == "torch" else "1.0")
    assert all(runs.load(build, s) is None for s in every), "a new torch kept the old runs"


def test_a_notebook_is_filled_as_a_kernel_would_fill_it(project, tmp_path):
    """Each :load: cell gets its snippet's outputs and an execution count; a cell whose snippet
    has no run gets nothing and is named; the notebook gets the language a Python kernel
    reports (myst-nb chooses the code's highlighting from it)."""
    from ipykernel.ipkernel import IPythonKernel

    assert notebooks.LANGUAGE_INFO == IPythonKernel.language_info
    build = tmp_path / "build"
    runs.run_missing([snippet(project, "prints")], build)
    page = project / "docs" / "en" / "page.md"
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# A page"),
            nbformat.v4.new_code_cell("", metadata={"load": "../../snippets/demo/prints.py"}),
            nbformat.v4.new_code_cell("", metadata={"load": "../../snippets/demo/raises.py"}),
        ]
    )
    without = notebooks.fill(notebook, page, build)
    assert without == [2], without
    assert notebook.cells[1].execution_count == 1
    assert notebook.cells[1].outputs == runs.load(build, snippet(project, "prints"))["outputs"]
    assert notebook.cells[2].outputs == []
    assert notebook.metadata.language_info.pygments_lexer == "ipython3"


def test_a_run_is_compared_with_its_transcript_as_the_check_compares_it(project):
    """The transcript check judges the site build's runs instead of running each snippet again
    (tests/test_transcripts.py): against_transcript finds no difference in a run of a snippet
    just recorded, and names the statement whose output its transcript holds otherwise."""
    prints = snippet(project, "prints")
    assert transcripts.record_one(prints, "cpu").ok
    run = runner.page_run(prints)
    assert runner.against_transcript(prints, "cpu", run) == []
    path = prints.transcript("cpu")
    path.write_text(path.read_text().replace("sum: 10.0", "sum: 11.0"), encoding="utf-8")
    found = runner.against_transcript(prints, "cpu", run)
    assert len(found) == 1 and found[0].startswith("snippets/demo/prints.py:6: output differs")
    assert "Expected:\n    sum: 11.0\nGot:\n    sum: 10.0" in found[0], found


def test_a_generator_may_run_five_times_a_snippets_limit(monkeypatch):
    """operators.py ran over the snippets' 60 s on a busy machine: generators get five times."""
    from whatcopy.core.snippets import resolve

    monkeypatch.setenv("SNIPPET_TIMEOUT", "7")
    snippet, generator = resolve(["detach/stops_gradient"])[0], resolve(["generators/operators"])[0]
    assert runner.timeout_for(snippet) == 7
    assert runner.timeout_for(generator) == 35


def test_a_language_build_waits_for_the_runs_on_a_pipe():
    """`python -m whatcopy build` starts the languages' builds while it runs the snippets (site/
    build.py): each waits, before it reads a page, for one message on a pipe (a blocking read,
    nothing polled), and stops if the pipe is closed without it (the runs failed, or the
    process that made them was stopped)."""
    import os
    import threading
    import time

    from sphinx.errors import SphinxError

    from whatcopy.sphinxext import snippet_runs

    read, write = os.pipe()
    told = threading.Timer(0.5, lambda: (os.write(write, snippet_runs.READY), os.close(write)))
    started = time.perf_counter()
    told.start()
    snippet_runs.wait_for_runs(read)
    assert time.perf_counter() - started >= 0.5, "it read pages before the runs were made"
    told.join()

    read, write = os.pipe()
    os.close(write)
    with pytest.raises(SphinxError, match="runs were not made"):
        snippet_runs.wait_for_runs(read)


def test_a_few_snippets_share_one_fork_server_and_a_batch_uses_the_cores():
    """Each fork server imports torch: recording two or three snippets starts one, not one per
    core; the build's batch of snippets still runs on every core it is given."""
    per = runner.SNIPPETS_PER_SERVER
    assert runner.parallel_servers(1, 2) == 1
    assert runner.parallel_servers(per, 16) == 1
    assert runner.parallel_servers(per + 1, 16) == 2
    assert runner.parallel_servers(193, 2) == 2
    assert runner.parallel_servers(193, 1) == 1
    assert runner.parallel_servers(0, 2) == 1
