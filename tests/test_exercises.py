"""Exercises: each content page's predict-the-output exercises, their folded executed answers,
the course kit's exercise notebooks and answers, and the questions page's search.

The source checks need no build; the others read docs/_build/html (build it first). The exercise
notebooks are run, each cell compared with its answer, in tests/test_kit.py
(test_every_kit_notebook_runs_with_only_torch), with the kit's other notebooks.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from project import DOCS, HTML, LANGUAGES, ROOT, SNIPPETS, Page, parsed_html
from test_pages import glossary_problems, hand_typed_values, typography_problems

from whatcopy.content import pages as reader
from whatcopy.core import transcripts
from whatcopy.sphinxext.exercises import page_exercises

CONTENT_PAGES = [
    "overview",
    "detach",
    "clone",
    "clone-detach",
    "deepcopy",
    "inplace",
    "memory",
    "devices",
    "training",
    "hooks",
    "modes",
    "values",
    "views",
    "flags",
]
CASES = [(language, page) for language in LANGUAGES for page in CONTENT_PAGES]
IDS = [f"{language}/{page}" for language, page in CASES]


def source(language: str, page: str) -> Path:
    return DOCS / language / f"{page}.md"


def html(language: str, page: str) -> Path:
    return HTML / LANGUAGES[language][0] / f"{page}.html"


def expected_output(snippet_name: str) -> str:
    """What the page must show for a snippet: the CPU transcript's printed text and exception."""
    snippet = transcripts.Snippet(SNIPPETS / f"{snippet_name}.py")
    printed, error = transcripts.recorded_output(snippet)
    return (printed + (error or "")).rstrip("\n")


# ---------------------------------------------------------------------------------------------
# Page sources


def structure_problems(path: Path, page: str) -> list[str]:
    """An exercises section with 2 or 3 exercises, each {exercise} / cell / {answer}, each cell
    loading a snippet of snippets/exercises/<page>/ that no other cell of the page loads."""
    rel = path.relative_to(ROOT) if ROOT in path.parents else path
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    problems = []
    label = f"({page}-exercises)="
    if label not in lines:
        return [f"{rel}: no {label} section"]
    start = lines.index(label)
    exercises = page_exercises(path)
    if not 2 <= len(exercises) <= 3:
        problems.append(f"{rel}: {len(exercises)} exercises, expected 2 or 3")
    cells = reader.read(path, text).cells
    loads = [cell.load for cell in cells]
    for exercise in exercises:
        # the line of the exercise cell's opening fence
        where = next(cell.line for cell in cells if cell.load == exercise["load"])
        if where <= start:
            problems.append(f"{rel}:{where}: exercise cell outside the {page}-exercises section")
        if not exercise["snippet"].startswith(f"exercises/{page}/"):
            problems.append(
                f"{rel}:{where}: an exercise loads snippets/exercises/{page}/..., "
                f"not {exercise['snippet']}"
            )
        if loads.count(exercise["load"]) != 1:
            problems.append(
                f"{rel}:{where}: {exercise['load']} is loaded more than once, so its "
                "answer is printed outside the fold"
            )
        # {exercise} just above the cell, {answer} just below it
        cell = where - 1  # index of the ```{code-cell} line
        above = [ln for ln in lines[:cell] if ln.strip()]
        below_start = next(i for i in range(cell + 1, len(lines)) if lines[i].startswith("```"))
        below = [ln for ln in lines[below_start + 1 :] if ln.strip()]
        if (
            len(above) < 2
            or above[-1] != "```"
            or not any(ln == "```{exercise}" for ln in above[-6:])
        ):
            problems.append(f"{rel}:{where}: no {{exercise}} block just above the exercise cell")
        if not below or below[0] != "```{answer}":
            problems.append(f"{rel}:{where}: no {{answer}} block just below the exercise cell")
    return problems


@pytest.mark.parametrize("language, page", CASES, ids=IDS)
def test_each_content_page_ends_with_two_or_three_exercises(language, page):
    problems = structure_problems(source(language, page), page)
    assert not problems, "\n".join(problems)


def test_both_languages_have_the_same_exercises():
    for page in CONTENT_PAGES:
        en = [e["snippet"] for e in page_exercises(source("en", page))]
        zh = [e["snippet"] for e in page_exercises(source("zh", page))]
        assert en == zh, f"docs/zh/{page}.md has exercises {zh}, docs/en/{page}.md {en}"


def test_every_exercise_snippet_is_an_exercise_on_its_page():
    used = {e["snippet"] for page in CONTENT_PAGES for e in page_exercises(source("en", page))}
    files = {
        p.relative_to(SNIPPETS).with_suffix("").as_posix()
        for p in (SNIPPETS / "exercises").rglob("*.py")
    }
    assert files == used, (
        f"not an exercise: {sorted(files - used)}; missing: {sorted(used - files)}"
    )


def directive_text_as_prose(path: Path, tmp_path: Path, language: str) -> Page:
    """The page with the {exercise}/{answer} fences removed, so that the lints of test_pages.py
    (which skip directive bodies) read the questions and the reasons as the prose they are."""
    text = path.read_text(encoding="utf-8")
    out = text.splitlines()
    for fence in reader.fences(text):  # as MyST's parser reads them
        if fence.directive in ("{exercise}", "{answer}"):
            out[fence.start] = ""
            if fence.closed:
                out[fence.closing] = ""
    (tmp_path / language).mkdir(exist_ok=True)
    copy = tmp_path / language / path.name
    copy.write_text("\n".join(out) + "\n", encoding="utf-8")
    return Page(language, copy)


@pytest.mark.parametrize("language, page", CASES, ids=IDS)
def test_questions_and_reasons_pass_the_page_lints(language, page, tmp_path):
    prose = directive_text_as_prose(source(language, page), tmp_path, language)
    problems = hand_typed_values(prose)
    if language == "zh":
        problems += typography_problems(prose) + glossary_problems(prose)
    problems = [p.replace(str(tmp_path / language), f"docs/{language}") for p in problems]
    assert not problems, "\n".join(problems)


BAD_SOURCE = """(p-exercises)=
## Exercises

```{code-cell} python
:load: ../../snippets/detach/stops_gradient.py
:tags: [exercise]
```

```{answer}
Because.
```
"""


def test_the_source_check_catches_a_broken_exercise(tmp_path):
    (tmp_path / "en").mkdir()
    path = tmp_path / "en" / "p.md"
    path.write_text(BAD_SOURCE, encoding="utf-8")
    problems = "\n".join(structure_problems(path, "p"))
    assert "1 exercises, expected 2 or 3" in problems
    assert "not detach/stops_gradient" in problems
    assert "no {exercise} block just above" in problems
    assert "no {answer} block" not in problems


# ---------------------------------------------------------------------------------------------
# The built pages: answers are executed outputs, folded and closed


def fold_problems(path: Path) -> list[str]:
    """Each exercise cell: its output only inside a closed <details>, equal to the transcript."""
    soup = parsed_html(path)
    problems = []
    for cell in soup.select("div.cell.tag_exercise"):
        meta = cell.select_one(".snippet-meta code")
        name = meta.get_text().removeprefix("snippets/").removesuffix(".py") if meta else "?"
        folds = cell.find_all("details", recursive=False)
        if len(folds) != 1 or "exercise-answer" not in folds[0].get("class", []):
            problems.append(f"{path.name}: {name}: no <details class=exercise-answer> fold")
            continue
        fold = folds[0]
        if fold.has_attr("open"):
            problems.append(f"{path.name}: {name}: the answer is open on load")
        if cell.find("div", class_="cell_output", recursive=False):
            problems.append(f"{path.name}: {name}: an output outside the fold")
        output = fold.select_one("div.cell_output")
        shown = output.get_text().strip("\n") if output else ""
        if name == "?" or shown != expected_output(name):
            problems.append(
                f"{path.name}: {name}: the folded output is\n{shown}\nnot the "
                f"transcript's\n{expected_output(name) if name != '?' else ''}"
            )
        if not fold.select_one(".exercise-reason p"):
            problems.append(f"{path.name}: {name}: no reason inside the fold")
    return problems


@pytest.mark.parametrize("language, page", CASES, ids=IDS)
def test_answers_are_executed_outputs_folded_closed(language, page, built_site):
    path = html(language, page)
    problems = fold_problems(path)
    soup = parsed_html(path)
    cells = soup.select("div.cell.tag_exercise")
    expected = len(page_exercises(source(language, page)))
    if len(cells) != expected:
        problems.append(f"{path.name}: {len(cells)} exercise cells, the source has {expected}")
    numbers = [q.strong.get_text() for q in soup.select("div.exercise-question p:first-child")]
    if len(numbers) != expected:
        problems.append(f"{path.name}: numbered questions {numbers}")
    assert not problems, "\n".join(problems)


def test_the_fold_check_catches_open_wrong_and_unfolded_answers(tmp_path):
    name = "exercises/detach/two_paths"
    right = expected_output(name)
    meta = f'<div class="snippet-meta"><p><code>snippets/{name}.py</code></p></div>'
    page = tmp_path / "p.html"
    page.write_text(
        '<div class="cell tag_exercise"><details class="exercise-answer" open>'
        f'<summary>A</summary><div class="cell_output">{right}</div>'
        f'<div class="exercise-reason"><p>why</p></div></details>{meta}</div>'
        '<div class="cell tag_exercise"><details class="exercise-answer"><summary>A</summary>'
        f'<div class="cell_output">x.grad: typed by hand</div></details>{meta}</div>'
        f'<div class="cell tag_exercise"><div class="cell_output">{right}</div>{meta}</div>',
        encoding="utf-8",
    )
    problems = "\n".join(fold_problems(page))
    assert "open on load" in problems
    assert "typed by hand" in problems and "no reason inside the fold" in problems
    assert "no <details class=exercise-answer> fold" in problems


# ---------------------------------------------------------------------------------------------
# The course kit: exercises without answers, answers apart


def kit(language: str) -> Path:
    return HTML / LANGUAGES[language][0] / "downloads" / "exercises"


def exercise_cells(notebook) -> list:
    """An exercise notebook's code cells but those that install what it needs beyond torch."""
    from whatcopy.sphinxext.course_kit import SETUP_TAG

    return [
        c
        for c in notebook.cells
        if c.cell_type == "code" and SETUP_TAG not in c.metadata.get("tags", [])
    ]


@pytest.mark.parametrize("language, page", CASES, ids=IDS)
def test_the_kit_has_an_exercise_notebook_and_a_separate_answer_file(language, page):
    notebook_path = kit(language) / f"{page}.ipynb"
    answers_path = kit(language) / f"{page}-answers.md"
    assert notebook_path.exists() and answers_path.exists(), f"missing in {kit(language)}"
    notebook = nbformat.read(notebook_path, as_version=4)
    nbformat.validate(notebook)
    code = exercise_cells(notebook)
    names = [e["snippet"] for e in page_exercises(source(language, page))]
    sources = [(SNIPPETS / f"{n}.py").read_text(encoding="utf-8").rstrip("\n") for n in names]
    assert [c.source for c in code] == sources, f"{notebook_path}: not the page's exercise snippets"
    assert all(not c.outputs for c in code), f"{notebook_path}: a cell carries its answer"
    answers = answers_path.read_text(encoding="utf-8")
    for name in names:
        output = expected_output(name)
        assert f"```text\n{output}\n```" in answers, f"{answers_path}: no output of {name}"
        for line in output.splitlines():
            assert line not in json.dumps(notebook), f"{notebook_path} gives away {line!r}"


def test_the_teachers_page_links_every_page_exercises_and_kit_files():
    for language in LANGUAGES:
        path = HTML / LANGUAGES[language][0] / "teachers.html"
        soup = parsed_html(path)
        hrefs = {a["href"] for a in soup.select("article a[href]")}
        for page in CONTENT_PAGES:
            for href in (
                f"{page}.html#{page}-exercises",
                f"downloads/exercises/{page}.ipynb",
                f"downloads/exercises/{page}-answers.md",
            ):
                assert href in hrefs, f"{path.relative_to(HTML)} does not link {href}"
                assert (path.parent / href.split("#")[0]).exists(), href


# ---------------------------------------------------------------------------------------------
# The questions page: search finds each question, in both languages


def test_the_questions_pages_ask_the_same_questions():
    en = Page("en", DOCS / "en" / "questions.md").labels()
    zh = Page("zh", DOCS / "zh" / "questions.md").labels()
    assert en == zh and len(en) > 20


BROKEN_PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Page

```{exercise}
A question whose cell has no answer below it.
```

```{code-cell} python
:load: {snippet}
:tags: [exercise]
```

```{answer}
A reason with no exercise cell above it.
```
"""


def test_the_build_rejects_a_misplaced_answer(tmp_path):
    """The extension itself: an exercise cell needs {exercise} above and {answer} right below.
    A one-page site, built in a subprocess: built in the test process after another in-process
    build (tests/test_build.py, tests/test_device_prose.py), myst-nb fails to find its
    'markdown' parser, a registration that lives beyond one Sphinx application."""
    import subprocess
    import sys

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "conf.py").write_text(
        "extensions = ['myst_nb', 'whatcopy.sphinxext.exercises']\nnb_execution_mode = 'off'\n",
        encoding="utf-8",
    )
    snippet = SNIPPETS / "exercises" / "detach" / "two_paths.py"
    page = BROKEN_PAGE.replace("{snippet}", str(snippet)).replace(
        "```\n\n```{answer}", "```\n\nA paragraph between the cell and its answer.\n\n```{answer}"
    )
    (tmp_path / "src" / "index.md").write_text(page, encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-q",
            "-N",
            str(tmp_path / "src"),
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    expected = "needs an {exercise} block just above it and an {answer} block just below it"
    assert expected in run.stderr, run.stderr
    assert "an {exercise} or {answer} block without its exercise cell" in run.stderr, run.stderr
