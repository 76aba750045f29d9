"""The teachers' kit (whatcopy/sphinxext/course_kit.py): one archive per language, linked from
the teachers' page, with what can be handed out (students/) apart from the answers
(teachers/); notebooks that run in a fresh environment with only torch (their kit-setup cells
install the rest), that link back to the published site and hold no exercise answer; and the
line that credits the CC BY text, the same in the site's footer, the kit and the book.

Each check is a function that returns its problems, shown failing once on a seeded fault."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import types
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from project import DOCS, HTML, LANGUAGES, ROOT, SNIPPETS, clean_python, parsed_html

from whatcopy import project
from whatcopy.core import transcripts
from whatcopy.site import book
from whatcopy.sphinxext import course_kit
from whatcopy.sphinxext.course_kit import SETUP_TAG, attribution_line, kit_path
from whatcopy.sphinxext.exercises import page_exercises

SPHINX = {"en": "en", "zh": "zh_CN"}  # the languages' Sphinx codes


def folder(language: str) -> str:
    return LANGUAGES[language][0]


def archive(language: str) -> zipfile.ZipFile:
    path = HTML / folder(language) / kit_path(folder(language))
    assert path.is_file(), f"{path} is missing: build the site (python -m whatcopy build)"
    return zipfile.ZipFile(path)


def members(language: str) -> dict[str, bytes]:
    """The kit's files by their name below its top folder."""
    with archive(language) as kit:
        return {name.split("/", 1)[1]: kit.read(name) for name in kit.namelist()}


def published(language: str) -> str:
    """Where the built site says it is published (the build's --site-url, which CI takes from
    SITE_URL, else GitHub Pages' address of the repository), with the language's folder."""
    base = os.environ.get("SITE_URL") or project.pages_url(project.repository(ROOT))
    return f"{base.rstrip('/')}/{folder(language)}/"


def exercise_pages(language: str) -> dict[str, list[dict]]:
    found = {}
    for page in sorted((DOCS / language).glob("*.md")):
        if exercises := page_exercises(page):
            found[page.stem] = exercises
    return found


def notebooks(files: dict[str, bytes]) -> dict[str, dict]:
    return {name: json.loads(data) for name, data in files.items() if name.endswith(".ipynb")}


def cell_source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


# ---------------------------------------------------------------------------------------------
# What the archive holds, and on which side


def placement_problems(names: list[str], language: str) -> list[str]:
    """What is missing from the kit, or on the wrong side of it."""
    problems = []
    required = {"README.md", "LICENSE", "ATTRIBUTION.txt"}
    required |= {f"students/snippets/{s.name}.py" for s in transcripts.all_snippets()}
    for page in exercise_pages(language):
        required |= {f"students/exercises/{page}.ipynb", f"teachers/answers/{page}-answers.md"}
    problems += [f"{name}: missing" for name in sorted(required - set(names))]
    for name in names:
        side = name.split("/")[0]
        answer = name.endswith("-answers.md") or re.search(r"transcripts/\w+/exercises/", name)
        if side == "students" and answer:
            problems.append(f"{name}: an answer among the students' files")
        if name.endswith(".pdf") and (side == "students") != ("student" in Path(name).stem):
            problems.append(f"{name}: a book on the wrong side")
        if side not in ("students", "teachers") and name not in required:
            problems.append(f"{name}: neither the students' nor the teachers'")
    return problems


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_kit_holds_everything_with_the_answers_apart(language):
    names = sorted(members(language))
    assert not placement_problems(names, language)
    assert any(n.startswith("students/notebooks/") for n in names), "no page notebook"
    # the seeded faults: an answer file handed to students, a teacher's book among theirs
    seeded = [*names, "students/detach-answers.md", "students/what-does-it-copy-en-teacher.pdf"]
    seeded.remove("README.md")
    assert placement_problems(seeded, language) == [
        "README.md: missing",
        "students/detach-answers.md: an answer among the students' files",
        "students/what-does-it-copy-en-teacher.pdf: a book on the wrong side",
    ]


def test_books_go_to_their_side_and_may_be_absent(tmp_path):
    """A book whose name says "student" goes to students/, any other to teachers/; a site built
    without --book gives a kit without them. The archive is the same bytes when written again."""
    site = tmp_path / "en"
    downloads = site / "downloads"
    for name in ("snippets/detach/a.py", "kit/ATTRIBUTION.txt", "exercises/detach.ipynb"):
        (downloads / name).parent.mkdir(parents=True, exist_ok=True)
        (downloads / name).write_text("{}\n")
    names = [name for name, _ in course_kit.kit_entries(site)]
    assert not [n for n in names if n.endswith(".pdf")]
    for edition in ("student", "teacher"):
        (site / f"what-does-it-copy-en-{edition}.pdf").write_bytes(b"%PDF-1.7 " + edition.encode())
    names = [name for name, _ in course_kit.kit_entries(site)]
    assert "students/what-does-it-copy-en-student.pdf" in names
    assert "teachers/what-does-it-copy-en-teacher.pdf" in names
    first = course_kit.write_kit(site).read_bytes()
    assert course_kit.write_kit(site).read_bytes() == first


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_teachers_page_links_its_languages_kit(language):
    page = HTML / folder(language) / "teachers.html"
    problems = kit_link_problems(parsed_html(page), page, language)
    assert not problems, problems
    # the seeded fault: the link gone
    html = page.read_text(encoding="utf-8").replace(kit_path(folder(language)), "elsewhere.zip")
    unlinked = BeautifulSoup(html, "html.parser")
    assert kit_link_problems(unlinked, page, language) == [f"{page.name}: no link to its kit"]


def kit_link_problems(soup, page: Path, language: str) -> list[str]:
    target = kit_path(folder(language))
    links = [a["href"] for a in soup.select("article a[href]") if a["href"] == target]
    if not links:
        return [f"{page.name}: no link to its kit"]
    return [f"{page.name}: {h} does not exist" for h in links if not (page.parent / h).is_file()]


# ---------------------------------------------------------------------------------------------
# The notebooks: no answers, absolute links, what they need beyond torch


def answer_problems(notebooks: dict[str, dict], language: str) -> list[str]:
    """A students' notebook whose exercise cell carries an output (its answer)."""
    exercise_sources = {
        transcripts.by_name(e["snippet"]).source.rstrip("\n")
        for exercises in exercise_pages(language).values()
        for e in exercises
    }
    problems = []
    for name, notebook in notebooks.items():
        for cell in notebook["cells"]:
            if cell["cell_type"] != "code" or not cell["outputs"]:
                continue
            if name.startswith("students/exercises/") or cell_source(cell) in exercise_sources:
                problems.append(f"{name}: an exercise cell carries its output")
    return problems


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_students_notebook_gives_an_answer_away(language):
    found = notebooks(members(language))
    assert not answer_problems(found, language)
    # the seeded fault: the page notebook's exercise cell with its recorded output again
    page, exercises = next(iter(exercise_pages(language).items()))
    notebook = found[f"students/notebooks/{page}.ipynb"]
    source = transcripts.by_name(exercises[0]["snippet"]).source.rstrip("\n")
    cell = next(c for c in notebook["cells"] if cell_source(c) == source)
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "the answer\n"}]
    assert answer_problems(found, language) == [
        f"students/notebooks/{page}.ipynb: an exercise cell carries its output"
    ]


LINK = re.compile(r"\]\(([^)\s]+)\)")


def link_problems(notebooks: dict[str, dict], base: str) -> list[str]:
    """A notebook with no link back to the site, or a link that is not absolute to it."""
    problems = []
    for name, notebook in notebooks.items():
        links = [
            link
            for cell in notebook["cells"]
            if cell["cell_type"] == "markdown"
            for link in LINK.findall(cell_source(cell))
        ]
        if not any(link.startswith(base) for link in links):
            problems.append(f"{name}: no link back to {base}")
        problems += [f"{name}: link {link} is relative" for link in links if "://" not in link]
    return problems


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_notebooks_link_back_to_the_published_site(language):
    found = notebooks(members(language))
    assert not link_problems(found, published(language))
    # the seeded fault: the relative link the notebooks had, broken in Colab
    name = "students/notebooks/detach.ipynb"
    first = found[name]["cells"][0]
    first["source"] = re.sub(r"\(https?://[^)]+\)", "(../../detach.html)", cell_source(first))
    assert link_problems(found, published(language)) == [
        f"{name}: no link back to {published(language)}",
        f"{name}: link ../../detach.html is relative",
    ]


def setup_of(notebook: dict) -> tuple[set[str], set[str]]:
    """What a notebook's kit-setup cells provide: the modules they install when missing (the
    NEEDS table) and the files they write (%%writefile)."""
    installs, writes = set(), set()
    for cell in notebook["cells"]:
        if SETUP_TAG not in cell["metadata"].get("tags", []):
            continue
        source = cell_source(cell)
        if source.startswith("%%writefile "):
            writes.add(source.split("\n", 1)[0].split()[1])
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "NEEDS":
                installs |= set(ast.literal_eval(node.value))
    return installs, writes


def needs_problems(notebooks: dict[str, dict]) -> list[str]:
    """A cell importing a pinned package (numpy, expecttest) or a module of generators/ that
    the notebook's setup neither installs nor writes; a setup cell after a cell that needs it.
    (A generator needs expecttest: torch.testing._internal imports it.)"""
    pinned = {"numpy", "expecttest"}
    local = {p.stem for p in transcripts.GENERATORS.glob("*.py")}
    problems = []
    for name, notebook in notebooks.items():
        installs, writes = setup_of(notebook)
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        tags = [SETUP_TAG in c["metadata"].get("tags", []) for c in code]
        if tags != sorted(tags, reverse=True):  # the setup cells first
            problems.append(f"{name}: a kit-setup cell after the first other cell")
        for cell in code:
            source = cell_source(cell)
            if source.startswith("%%"):
                continue
            imported = {
                alias.name.split(".")[0]
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Import)
                for alias in node.names
            } | {
                node.module.split(".")[0]
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom) and node.module and not node.level
            }
            if "torch.testing._internal" in source or "OpInfo" in source:
                imported.add("expecttest")
            if any(  # x.numpy(), torch.from_numpy(a): "Numpy is not available" without it
                isinstance(node, ast.Attribute) and node.attr in ("numpy", "from_numpy")
                for node in ast.walk(ast.parse(source))
            ):
                imported.add("numpy")
            for module in sorted(imported & pinned - installs):
                problems.append(f"{name}: imports {module}, which no kit-setup cell installs")
            for module in sorted(imported & local - {w.removesuffix(".py") for w in writes}):
                problems.append(f"{name}: imports {module}, which no kit-setup cell writes")
    return problems


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_notebook_sets_up_what_its_cells_need_beyond_torch(language):
    found = notebooks(members(language))
    assert not needs_problems(found)
    # the seeded fault: the claims page's notebook without its setup cells
    name = "students/notebooks/claims.ipynb"
    found[name]["cells"] = [
        c for c in found[name]["cells"] if SETUP_TAG not in c["metadata"].get("tags", [])
    ]
    problems = needs_problems(found)
    assert f"{name}: imports numpy, which no kit-setup cell installs" in problems
    assert f"{name}: imports zoo, which no kit-setup cell writes" in problems
    # and the inplace page's, whose cells need numpy through x.detach().numpy() alone
    name = "students/notebooks/inplace.ipynb"
    found[name]["cells"] = [
        c for c in found[name]["cells"] if SETUP_TAG not in c["metadata"].get("tags", [])
    ]
    assert f"{name}: imports numpy, which no kit-setup cell installs" in needs_problems(found)


def test_the_setup_cell_installs_only_what_is_missing(tmp_path):
    """Run in an environment with only torch, the setup cell asks pip for the missing pinned
    packages, and for nothing when they are there (a stub pip records what it is asked)."""
    snippet = transcripts.by_name("values/from_numpy")
    (cell,) = course_kit.setup_cells([snippet])
    torch_only = tmp_path / "requirements.txt"
    torch_only.write_text("torch==2.13.0\n")
    python = clean_python(tmp_path / "venv", torch_only, probe=only_torch_probe({"numpy"}))
    site = next((tmp_path / "venv").glob("lib/python*/site-packages"))
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("")
    log = tmp_path / "pip.log"
    (site / "pip" / "__main__.py").write_text(
        f"import sys\nopen({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
    )
    script = tmp_path / "setup.py"
    script.write_text(cell["source"])
    subprocess.run([str(python), "-I", str(script)], check=True, cwd=tmp_path)
    assert log.read_text() == "install --quiet numpy==2.4.6\n"
    # with numpy there, pip is not asked
    log.unlink()
    with_numpy = tmp_path / "with-numpy.txt"
    with_numpy.write_text("torch==2.13.0\nnumpy==2.4.6\n")
    python = clean_python(tmp_path / "venv2", with_numpy, probe="import numpy")
    subprocess.run([str(python), "-I", str(script)], check=True, cwd=tmp_path)
    assert not log.exists()


def only_torch_probe(absent: set[str]) -> str:
    """Python code that exits 0 where torch is found and none of `absent` (nor pytest, nor
    sphinx) is. (Found, not imported: the notebooks' driver imports torch first thing, and the
    setup cell's test needs none: an import here cost about 2 CPU-s per environment.)"""
    names = sorted(absent | {"pytest", "sphinx"})
    return (
        "import importlib.util as u, sys; "
        f"sys.exit(0 if u.find_spec('torch') and all(u.find_spec(m) is None for m in {names!r})"
        " else 3)"
    )


# A notebook run as a kernel runs it: the cells top to bottom in one namespace, the working
# folder on the path; a %%writefile cell writes its file. A cell tagged raises-exception must
# raise what its page showed (its stored error), or the class its `# raises` comment names; a
# cell that stores its page's output must print it. Any other IPython syntax fails to compile,
# and so fails the run.
#
# `python -I driver.py FOLDER ...` runs each FOLDER/notebook.ipynb so, in a process of its own
# forked from the driver once it has imported torch (what every notebook imports; about 2 s
# of CPU a time, which the notebooks' own cells mostly do not reach), as the site's snippets run
# (whatcopy.core.runner.ForkServer): the child starts in its folder, which is its sys.path[0],
# with the generators a fresh interpreter seeds randomly reseeded, and nothing else of another
# notebook's. Each child writes what went wrong to FOLDER/problems.txt and exits 1 with it.
DRIVER = """
import contextlib, io, json, os, random, re, signal, sys, time, traceback
LIMIT = float(os.environ.get("KIT_NOTEBOOK_TIMEOUT", "600"))  # seconds a notebook may run

def run(notebook):
    namespace = {"__name__": "__main__"}
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    text = lambda value: value if isinstance(value, str) else "".join(value)
    problems = []
    for number, cell in enumerate(code, start=1):
        source = text(cell["source"])
        if source.startswith("%%writefile "):
            first, _, body = source.partition("\\n")
            open(first.split()[1], "w", encoding="utf-8").write(body + "\\n")
            continue
        printed, raised = io.StringIO(), None
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(source, f"<code cell {number}>", "exec"), namespace)
        except BaseException as exc:
            raised = exc
            if "raises-exception" not in cell["metadata"].get("tags", []):
                problems.append(f"code cell {number} raised:\\n" + traceback.format_exc())
                break
        errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
        expected = re.search(r"#\\s*raises\\s+([\\w.]+)\\s*$", source)
        if raised is not None and errors:
            got = f"{type(raised).__name__}: {raised}"
            want = f"{errors[0]['ename']}: {errors[0]['evalue']}"
            if got != want:
                problems.append(f"code cell {number} raised {got!r}, its page {want!r}")
        elif raised is not None and expected and type(raised).__name__ != expected[1].split(".")[-1]:
            problems.append(f"code cell {number} raised {type(raised).__name__}: {raised}")
        stored = "".join(text(o["text"]) for o in cell["outputs"] if o["output_type"] == "stream")
        if cell["outputs"] and printed.getvalue().rstrip("\\n") != stored.rstrip("\\n"):
            problems.append(
                f"code cell {number} printed\\n{printed.getvalue()}\\nwhere its page printed\\n{stored}"
            )
    return problems

def child(folder):
    os.chdir(folder)
    sys.path.insert(0, folder)
    for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
        target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    random.seed()  # what a fresh interpreter seeds from the system, as forked children share it
    sys.modules["torch"].default_generator.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()
    try:
        problems = run(json.load(open("notebook.ipynb", encoding="utf-8")))
    except BaseException:
        problems = ["the driver failed:\\n" + traceback.format_exc()]
    open("problems.txt", "w", encoding="utf-8").write("\\n".join(problems))
    return 1 if problems else 0

import torch  # once, before the notebooks' processes are forked
import gc
gc.freeze()  # as the fork servers do: children's collections leave torch's pages alone

failed = 0
for folder in map(os.path.abspath, sys.argv[1:]):
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = child(folder)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + LIMIT
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    if done[0] == 0:
        os.kill(pid, signal.SIGKILL)
        done = os.waitpid(pid, 0)
        with open(os.path.join(folder, "problems.txt"), "a", encoding="utf-8") as out:
            out.write(f"\\nstill running after {LIMIT:g} s")
    status = os.waitstatus_to_exitcode(done[1])
    if status and not os.path.exists(os.path.join(folder, "problems.txt")):
        with open(os.path.join(folder, "problems.txt"), "w", encoding="utf-8") as out:
            out.write(f"its process ended with status {status}")
    failed += status != 0
sys.exit(1 if failed else 0)
"""


def run_notebooks(
    python: Path, folders: list[Path], driver: Path, limit: float = 600
) -> dict[Path, str]:
    """Run each folder's notebook.ipynb with DRIVER in the interpreter `python`, each given
    `limit` seconds: the problems of each notebook that failed (none when all ran as their
    pages show)."""
    result = subprocess.run(
        [str(python), "-I", str(driver), *map(str, folders)],
        capture_output=True,
        text=True,
        env={**os.environ, "KIT_NOTEBOOK_TIMEOUT": str(limit)},
        timeout=limit * len(folders) + 600,
        check=False,
    )
    found = {}
    for work in folders:
        report = work / "problems.txt"
        problems = report.read_text(encoding="utf-8") if report.exists() else "no report"
        if problems:
            found[work] = problems
    assert bool(found) == bool(result.returncode), (result.returncode, result.stderr, found)
    return found


EXERCISES = "students/exercises/"  # the kit's exercise notebooks, one per page: <page>.ipynb


def with_expected_outputs(name: str, notebook: dict, language: str) -> dict:
    """The kit's notebook `name`; an exercise notebook (which a student gets without outputs)
    with each exercise cell's outputs set to what the CPU transcript of its snippet recorded:
    the text it prints and the error it raises, which DRIVER compares with what the cell prints
    and raises. So a student who runs it sees the answers the teachers' side gives."""
    if not name.startswith(EXERCISES):
        return notebook
    page = DOCS / language / Path(name).with_suffix(".md").name
    snippets = [exercise["snippet"] for exercise in page_exercises(page)]
    filled = json.loads(json.dumps(notebook))
    cells = [
        cell
        for cell in filled["cells"]
        if cell["cell_type"] == "code" and SETUP_TAG not in cell["metadata"].get("tags", [])
    ]
    assert len(cells) == len(snippets), f"{name}: {len(cells)} cells for the exercises {snippets}"
    for cell, snippet in zip(cells, snippets, strict=True):
        printed, error = transcripts.recorded_output(
            transcripts.Snippet(SNIPPETS / f"{snippet}.py")
        )
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": printed}]
        if error:
            kind, _, message = error.partition(": ")
            cell["outputs"].append(
                {"output_type": "error", "ename": kind.split(".")[-1], "evalue": message}
            )
    return filled


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_exercise_cell_is_run_against_its_answer(language):
    """Every exercise of the language's pages is a cell of its page's exercise notebook in the
    kit, and the run above compares that cell with its answer (a stream output, whatever it
    prints, so a cell that prints nothing is compared too)."""
    kit_notebooks = notebooks(members(language))
    pages = exercise_pages(language)
    compared = 0
    for page, exercises in pages.items():
        name = f"{EXERCISES}{page}.ipynb"
        assert name in kit_notebooks, f"the {language} kit has no {name}"
        filled = with_expected_outputs(name, kit_notebooks[name], language)
        sources = [cell_source(c) for c in filled["cells"] if c.get("outputs")]
        expected = [
            (SNIPPETS / f"{e['snippet']}.py").read_text(encoding="utf-8").rstrip("\n")
            for e in exercises
        ]
        assert sources == expected, f"{name}: cells compared {sources}, exercises {expected}"
        compared += len(sources)
    assert compared >= 30, f"{language}: only {compared} exercise cells compared"


@pytest.mark.slow
@pytest.mark.usefixtures("built_site")
def test_every_kit_notebook_runs_with_only_torch(tmp_path):
    """Every notebook of both kits (the page notebooks and the exercise notebooks; one run per
    distinct list of code cells, as the languages' notebooks share theirs) runs top to bottom
    in a fresh environment that has torch and what its kit-setup cells install, nothing else:
    what Colab or a teacher with `pip install torch` gives, once the setup cells have run. Each
    notebook runs in a process of its own, forked from one that imported torch (DRIVER). An
    exercise notebook's cells print, and raise, what the teachers' answers say
    (with_expected_outputs)."""
    runs: dict[str, tuple[str, dict]] = {}
    for language in LANGUAGES:
        for name, notebook in notebooks(members(language)).items():
            code = [cell_source(c) for c in notebook["cells"] if c["cell_type"] == "code"]
            notebook = with_expected_outputs(name, notebook, language)
            runs.setdefault(json.dumps(code), (f"{folder(language)}: {name}", notebook))
    pythons: dict[frozenset, Path] = {}
    batches: dict[frozenset, list[Path]] = {}
    names: dict[Path, str] = {}
    (tmp_path / "driver.py").write_text(DRIVER)
    for index, (name, notebook) in enumerate(sorted(runs.values(), key=lambda r: r[0])):
        installs, _ = setup_of(notebook)
        key = frozenset(installs)
        if key not in pythons:
            requirements = tmp_path / f"requirements-{len(pythons)}.txt"
            pins = course_kit.requirement_pins()
            requirements.write_text("\n".join(["torch==2.13.0", *(pins[m] for m in key)]) + "\n")
            pythons[key] = clean_python(
                tmp_path / f"venv-{len(pythons)}",
                requirements,
                probe=only_torch_probe({"numpy", "expecttest"} - key),
            )
        work = tmp_path / f"run-{index}"
        work.mkdir()
        (work / "notebook.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
        batches.setdefault(key, []).append(work)
        names[work] = name
    failures = []
    for key, folders in batches.items():
        found = run_notebooks(pythons[key], folders, tmp_path / "driver.py")
        failures += [f"{names[work]}:\n{problems[-3000:]}" for work, problems in found.items()]
    assert len(runs) >= 20, f"only {len(runs)} notebooks found"
    assert not failures, "\n\n".join(failures)


def test_the_run_fails_where_a_module_is_missing(tmp_path):
    """The seeded faults for the test above, run with only torch: a cell importing numpy; a
    cell whose expected error (the page's) turns into another one, "Numpy is not available",
    which its raises-exception tag alone would let pass; a cell printing something else."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.13.0\n")
    python = clean_python(tmp_path / "venv", requirements, probe=only_torch_probe({"numpy"}))
    message = (
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    )

    def cell(source: str, outputs: list, tags: list) -> dict:
        return {
            "cell_type": "code",
            "metadata": {"tags": tags},
            "source": source,
            "outputs": outputs,
        }

    printed = [{"output_type": "stream", "name": "stdout", "text": "2\n"}]
    error = [{"output_type": "error", "ename": "RuntimeError", "evalue": message}]
    cases = {
        "import numpy\nprint(numpy.pi)": ([], [], "code cell 1 raised:"),
        "import torch\ntorch.ones(1, requires_grad=True).detach().numpy()": (
            error,
            ["raises-exception"],
            "code cell 1 raised 'RuntimeError: Numpy is not available'",
        ),
        "print(3)": (printed, [], "code cell 1 printed\n3\n\nwhere its page printed\n2"),
    }
    # and what one notebook's process leaves is not another's: a module it wrote and imported;
    # a notebook that runs past its limit fails, and the one after it still runs
    cases["%%writefile helper.py\nVALUE = 1"] = ([], [], None)
    cases["import helper\nprint(helper.VALUE)"] = ([], [], "No module named 'helper'")
    cases["import time\nwhile True:\n    time.sleep(0.1)"] = ([], [], "still running after 5 s")
    cases["import torch\nprint(torch.ones(2).sum().item())"] = (
        [{"output_type": "stream", "name": "stdout", "text": "2.0\n"}],
        [],
        None,
    )
    (tmp_path / "driver.py").write_text(DRIVER)
    folders = {}
    for number, (source, (outputs, tags, expected)) in enumerate(cases.items()):
        folders[tmp_path / f"nb{number}"] = expected
        (tmp_path / f"nb{number}").mkdir()
        notebook = {"cells": [cell(source, outputs, tags)]}
        (tmp_path / f"nb{number}" / "notebook.ipynb").write_text(json.dumps(notebook))
    # (the writefile notebook imports its module in a second cell)
    writer = json.loads((tmp_path / "nb3" / "notebook.ipynb").read_text())
    writer["cells"].append(cell("import helper\nprint(helper.VALUE)", [], []))
    (tmp_path / "nb3" / "notebook.ipynb").write_text(json.dumps(writer))
    found = run_notebooks(python, list(folders), tmp_path / "driver.py", limit=5)
    assert set(found) == {work for work, expected in folders.items() if expected}, found
    for work, expected in folders.items():
        assert expected is None or expected in found[work], (work, found.get(work))


# ---------------------------------------------------------------------------------------------
# Where the site is published, and the attribution


def test_the_published_address_falls_back_to_github_pages(tmp_path):
    config = types.SimpleNamespace(
        site_url="", html_theme_options={"repository_url": "https://github.com/Owner/repo"}
    )
    assert course_kit.published_url(config) == "https://owner.github.io/repo/"
    config.site_url = "https://example.org/copy"
    assert course_kit.published_url(config) == "https://example.org/copy/"
    # the repository: the clone's origin remote, else pyproject.toml's [project.urls]
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[project.urls]\nRepository = "https://github.com/a/b"\n'
    )
    assert project.github_repository(tmp_path) == "a/b"
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:c/d.git"],
        check=True,
    )
    assert project.github_repository(tmp_path) == "c/d"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    subprocess.run(["git", "-C", str(tmp_path), "remote", "remove", "origin"], check=True)
    assert project.github_repository(tmp_path) is None


def attribution_problems(texts: dict[str, str], line: str) -> list[str]:
    """Each text (by where it is) that does not hold the attribution line (whitespace aside:
    a PDF's lines wrap)."""
    line = re.sub(r"\s+", "", line)
    return [
        f"{where}: no attribution line"
        for where, text in texts.items()
        if line not in re.sub(r"\s+", "", text)
    ]


@pytest.mark.usefixtures("built_site")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_footer_the_kit_and_the_book_credit_the_text_alike(language):
    line = attribution_line(SPHINX[language], published(language))
    assert "CC BY 4.0" in line and published(language) in line
    site = HTML / folder(language)
    texts = {
        f"{folder(language)}/{page}.html footer": parsed_html(site / f"{page}.html")
        .select_one(".bd-footer-content")
        .get_text(" ")
        for page in ("index", "teachers", "detach")
    }
    texts["ATTRIBUTION.txt"] = members(language)["ATTRIBUTION.txt"].decode("utf-8")
    books = sorted(site.glob("*.pdf"))
    for pdf in books:  # (the site built with --book: nox -s tests, nox -s docs)
        texts[pdf.name] = book.sheet_texts(pdf, last=1)[0]
    assert not attribution_problems(texts, line)
    # the seeded fault: a footer saying only "© Copyright"
    texts[f"{folder(language)}/index.html footer"] = "© Copyright"
    assert attribution_problems(texts, line) == [
        f"{folder(language)}/index.html footer: no attribution line"
    ]
