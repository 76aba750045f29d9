"""What a teacher downloads works: notebooks hold what their page executed (but the exercises'
answers), the archive holds everything. (That each script runs alone with only torch and numpy
is checked by the same run that checks its transcript: tests/test_transcripts.py; that each
notebook runs in a fresh environment with only torch, and the teachers' kit, by
tests/test_kit.py.)"""

from __future__ import annotations

import json
import warnings
import zipfile
from pathlib import Path

import nbformat
import pytest
from project import HTML, LANGUAGES, ROOT, SNIPPETS, TRANSCRIPTS, Page, executed_cells, parsed_html

from whatcopy.core import transcripts

pytestmark = pytest.mark.usefixtures("built_site")  # every test here reads the built site

ALL = transcripts.all_snippets()


def unqualified(exception_line: str) -> str:
    """'torch.OutOfMemoryError: msg' -> 'OutOfMemoryError: msg' (a notebook's ename)."""
    name, _, message = exception_line.partition(": ")
    return f"{name.split('.')[-1]}: {message}"


def notebooks(language: str) -> list[Path]:
    return sorted((HTML / LANGUAGES[language][0] / "downloads" / "notebooks").rglob("*.ipynb"))


def snippet_cells(notebook) -> list:
    """A notebook's code cells but its kit-setup ones (what it needs beyond torch)."""
    from whatcopy.sphinxext.course_kit import SETUP_TAG

    return [
        c
        for c in notebook.cells
        if c.cell_type == "code" and SETUP_TAG not in c.metadata.get("tags", [])
    ]


def exercise_snippets(page: Path) -> set[str]:
    from whatcopy.sphinxext.exercises import page_exercises

    return {exercise["snippet"] for exercise in page_exercises(page)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_with_code_has_a_valid_notebook(language):
    from whatcopy.sphinxext.course_kit import page_snippets

    pages = [p for p in sorted((ROOT / "docs" / language).rglob("*.md")) if page_snippets(p)]
    found = notebooks(language)
    assert [p.stem for p in found] == [p.stem for p in pages]
    for path, page in zip(found, pages):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nbformat only warns about duplicate cell ids
            notebook = nbformat.read(path, as_version=4)
            nbformat.validate(notebook)
        sources = [c.source for c in snippet_cells(notebook)]
        expected = [transcripts.by_name(name).source.rstrip("\n") for name in page_snippets(page)]
        assert sources == expected, f"{path}: its code cells are not {page}'s snippets in order"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_notebook_holds_what_its_page_executed(language):
    """A notebook is its page's snippets in order (test above), and the build executed exactly
    those cells top to bottom in one kernel: so its stored outputs, and the tag that lets "Run
    All" go past an expected error, must be what that execution printed and raised; but an
    exercise cell stores nothing, its output being the exercise's answer. Checked against the
    build's own execution instead of running every notebook again."""
    problems = []
    for path in notebooks(language):
        page = Page(language, ROOT / "docs" / language / f"{path.stem}.md")
        executed = executed_cells(page)
        exercises = exercise_snippets(page.path)
        code = snippet_cells(nbformat.read(path, as_version=4))
        if len(code) != len(executed):
            problems.append(f"{path.name}: {len(code)} code cells, {page.rel} ran {len(executed)}")
            continue
        for cell, (name, printed, error) in zip(code, executed):
            where = f"{path.name}, snippets/{name}.py"
            if cell.source != transcripts.by_name(name).source.rstrip("\n"):
                problems.append(f"{where}: not the cell {page.rel} executed here")
            if name in exercises:
                if cell.outputs:
                    problems.append(f"{where}: an exercise cell stores its answer")
                printed = ""  # (its raises-exception tag is still checked below)
            stored = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            if stored.rstrip("\n") != printed.rstrip("\n"):
                problems.append(f"{where}: stores\n{stored}\nbut the page printed\n{printed}")
            errors = [f"{o.ename}: {o.evalue}" for o in cell.outputs if o.output_type == "error"]
            if name not in exercises and errors != ([unqualified(error)] if error else []):
                problems.append(f"{where}: stores error {errors}, the page raised {error!r}")
            tagged = "raises-exception" in cell.metadata.get("tags", [])
            if tagged != (error is not None):
                problems.append(f"{where}: raises-exception tag {tagged}, raised {error!r}")
    assert not problems, "\n".join(problems)


def test_the_archive_holds_every_snippet_and_transcript():
    """Every teacher's snippet and its transcripts; not the generators (generators/), which
    need more than torch and numpy."""
    archives = [HTML / folder / "downloads" / "snippets.zip" for folder, _ in LANGUAGES.values()]
    assert archives[0].read_bytes() == archives[1].read_bytes(), "the languages' archives differ"
    with zipfile.ZipFile(archives[0]) as archive:
        names = set(archive.namelist())
        expected = {
            f"what-does-it-copy/snippets/{p.relative_to(SNIPPETS).as_posix()}"
            for p in SNIPPETS.rglob("*.py")
        }
        expected |= {
            f"what-does-it-copy/transcripts/{p.relative_to(TRANSCRIPTS).as_posix()}"
            for p in TRANSCRIPTS.rglob("*.txt")
            if p.relative_to(TRANSCRIPTS).parts[1] != "generators"
        }
        expected |= {"what-does-it-copy/README.md", "what-does-it-copy/LICENSE"}
        assert names == expected, names ^ expected
        for snippet in ALL:
            inside = archive.read(f"what-does-it-copy/snippets/{snippet.name}.py")
            assert inside == snippet.path.read_bytes(), snippet.rel


def test_each_cell_links_its_downloads():
    page = HTML / "en" / "detach.html"
    soup = parsed_html(page)
    for cell in soup.select("div.cell"):
        hrefs = [a["href"] for a in cell.select(".snippet-meta a")]
        assert any(h.endswith(".py") for h in hrefs) and any("transcripts/cpu/" in h for h in hrefs)
        for href in hrefs:
            assert (page.parent / href).exists(), href
    assert json.loads((HTML / "en/downloads/notebooks/detach.ipynb").read_text())["nbformat"] == 4
