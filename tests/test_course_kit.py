"""What a teacher downloads works: scripts run alone, notebooks run top to bottom, the archive
holds everything."""

from __future__ import annotations

import json
import os
import re
import subprocess
import venv
import warnings
import zipfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from project import HTML, LANGUAGES, ROOT, SNIPPETS, TRANSCRIPTS

import transcripts

ALL = transcripts.all_snippets()


def unqualified(exception_line: str) -> str:
    """'torch.OutOfMemoryError: msg' -> 'OutOfMemoryError: msg' (a notebook's ename)."""
    name, _, message = exception_line.partition(": ")
    return f"{name.split('.')[-1]}: {message}"


@pytest.fixture(scope="module")
def clean_python(tmp_path_factory):
    """A fresh virtual environment with nothing but requirements/snippets.txt (torch, numpy)."""
    folder = tmp_path_factory.mktemp("clean-env")
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "-r", str(ROOT / "requirements/snippets.txt"),
         "-c", str(ROOT / "requirements/constraints.txt")],
        check=True,
    )
    frozen = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True)
    names = {line.split("==")[0].lower() for line in frozen.stdout.split()}
    assert {"torch", "numpy"} <= names and "sphinx" not in names, names
    return python


@pytest.mark.slow
def test_every_snippet_runs_alone_in_a_clean_environment(clean_python, tmp_path):
    """`python snippet.py` from an empty folder, with only torch and numpy installed, prints
    what the CPU transcript holds; a snippet meant to fail fails with the recorded error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["CUDA_VISIBLE_DEVICES"] = ""
    problems = []
    for snippet in ALL:
        workdir = tmp_path / snippet.name.replace("/", "_")
        workdir.mkdir()
        script = workdir / snippet.path.name
        script.write_bytes(snippet.path.read_bytes())
        run = subprocess.run([str(clean_python), script.name], cwd=workdir, env=env,
                             capture_output=True, text=True, timeout=120)
        printed, error = transcripts.recorded_output(snippet)
        if run.stdout != printed:
            problems.append(f"{snippet.rel}: printed\n{run.stdout}\nbut its transcript holds\n{printed}")
        if error is None and (run.returncode != 0 or run.stderr):
            problems.append(f"{snippet.rel}: exit {run.returncode}, stderr:\n{run.stderr}")
        # The interpreter's own hint ("... Did you mean: 'detach'?") is not part of the message.
        last_line = re.sub(r"\. Did you mean: .*\?$", "", run.stderr.rstrip())
        if error is not None and (run.returncode == 0 or not last_line.endswith(error)):
            problems.append(f"{snippet.rel}: expected to end with {error!r}, stderr:\n{run.stderr}")
    assert not problems, "\n\n".join(problems)


def notebooks(language: str) -> list[Path]:
    return sorted((HTML / LANGUAGES[language][0] / "downloads" / "notebooks").rglob("*.ipynb"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_with_code_has_a_valid_notebook(language):
    from course_kit import page_snippets

    pages = [p for p in sorted((ROOT / "docs" / language).rglob("*.md")) if page_snippets(p)]
    found = notebooks(language)
    assert [p.stem for p in found] == [p.stem for p in pages]
    for path, page in zip(found, pages):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nbformat only warns about duplicate cell ids
            notebook = nbformat.read(path, as_version=4)
            nbformat.validate(notebook)
        sources = [c.source for c in notebook.cells if c.cell_type == "code"]
        expected = [(SNIPPETS / f"{name}.py").read_text().rstrip("\n") for name in page_snippets(page)]
        assert sources == expected, f"{path}: its code cells are not {page}'s snippets in order"


@pytest.mark.slow
@pytest.mark.parametrize("path", notebooks("en"), ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom_and_prints_the_transcripts(path):
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    by_source = {s.source.rstrip("\n"): s for s in ALL}
    problems = []
    for cell in (c for c in notebook.cells if c.cell_type == "code"):
        snippet = by_source[cell.source]
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        errors = [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]
        expected_printed, expected_error = transcripts.recorded_output(snippet)
        if printed != expected_printed:
            problems.append(f"{snippet.rel} in {path.name}: printed\n{printed}")
        expected = [unqualified(expected_error)] if expected_error else []
        if errors != expected:
            problems.append(f"{snippet.rel} in {path.name}: raised {errors}, expected {expected}")
    assert not problems, "\n".join(problems)


def test_the_archive_holds_every_snippet_and_transcript():
    archives = [HTML / folder / "downloads" / "snippets.zip" for folder, _ in LANGUAGES.values()]
    assert archives[0].read_bytes() == archives[1].read_bytes(), "the languages' archives differ"
    with zipfile.ZipFile(archives[0]) as archive:
        names = set(archive.namelist())
        expected = {f"what-does-it-copy/snippets/{p.relative_to(SNIPPETS).as_posix()}"
                    for p in SNIPPETS.rglob("*.py")}
        expected |= {f"what-does-it-copy/transcripts/{p.relative_to(TRANSCRIPTS).as_posix()}"
                     for p in TRANSCRIPTS.rglob("*.txt")}
        expected |= {"what-does-it-copy/README.md", "what-does-it-copy/LICENSE"}
        assert names == expected, names ^ expected
        for snippet in ALL:
            inside = archive.read(f"what-does-it-copy/snippets/{snippet.name}.py")
            assert inside == snippet.path.read_bytes(), snippet.rel


def test_each_cell_links_its_downloads():
    from bs4 import BeautifulSoup

    page = HTML / "en" / "detach.html"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for cell in soup.select("div.cell"):
        hrefs = [a["href"] for a in cell.select(".snippet-meta a")]
        assert any(h.endswith(".py") for h in hrefs) and any("transcripts/cpu/" in h for h in hrefs)
        for href in hrefs:
            assert (page.parent / href).exists(), href
    assert json.loads((HTML / "en/downloads/notebooks/detach.ipynb").read_text())["nbformat"] == 4
