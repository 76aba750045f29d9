"""The build: what the site shows is what ran, both languages share one execution, and a bad
snippet stops the build with its file and line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from project import BUILD, DOCS, LANGUAGES, ROOT, all_pages, build, executed_cells, pages

from whatcopy import project as whatcopy_project
from whatcopy.core import transcripts
from whatcopy.site.compare import (
    book_differences,
    kit_differences,
    site_differences,
    where_they_differ,
)


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_page_outputs_are_the_recorded_transcripts(page, built_site):
    """What each cell shows, from the build's own execution, is what its CPU transcript holds."""
    problems = []
    cells = executed_cells(page)
    assert len(cells) == len(page.cells()), (
        f"{page.html} shows {len(cells)} of {len(page.cells())} cells"
    )
    for name, printed, error in cells:
        expected_printed, expected_error = transcripts.recorded_output(transcripts.by_name(name))
        if printed.rstrip("\n") != expected_printed.rstrip("\n"):
            problems.append(
                f"{page.rel}: snippets/{name}.py printed\n{printed}\nbut its transcript holds\n"
                f"{expected_printed}"
            )
        if error != expected_error:
            problems.append(
                f"{page.rel}: snippets/{name}.py raised {error!r}, its transcript {expected_error!r}"
            )
    assert not problems, "\n".join(problems)


def sphinx(source: Path, out: Path, doctrees: Path, *extra: str, cwd: Path = ROOT, **env):
    """The site's sphinx-build command (whatcopy.site.build), in one process, with its log."""
    return subprocess.run(
        # -N: the tests read this log, and CI=true or FORCE_COLOR would colour it.
        build.sphinx_args(source, out, doctrees, "-N", *extra, jobs="1", quiet=False),
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **env},  # the project is the one in `cwd` (whatcopy/project.py)
        check=False,
    )


def test_each_snippet_ran_once_for_both_languages(built_site):
    """Every snippet the pages of both languages load has one current run in the build folder,
    without problems: `python -m whatcopy build` runs them before it starts the languages'
    Sphinx processes, which only read the runs (`whatcopy_run_snippets=0`), so neither
    language executes anything or waits for the other. Read from the site build's own files,
    not a new build."""
    from whatcopy.core import runs
    from whatcopy.execution.notebooks import cell_snippet

    loaded = {}
    for page in all_pages():
        for cell in page.cells():
            snippet = cell_snippet(page.path, cell.load)
            loaded[snippet.name] = snippet
    kept = {
        path.relative_to(BUILD / runs.FOLDER / "cpu").with_suffix("").as_posix()
        for path in (BUILD / runs.FOLDER / "cpu").rglob("*.json")
    }
    assert set(loaded) <= kept, sorted(set(loaded) - kept)
    for snippet in loaded.values():
        run = runs.load(BUILD, snippet)
        assert run is not None, f"{snippet.rel}: its run is not current"
        assert not run["problems"], (snippet.rel, run["problems"])
    assert "whatcopy_run_snippets=0" in build.settings(BUILD)


# ---------------------------------------------------------------------------------------------
# A throwaway copy of the project, to break things in.


def read_docs(doctrees: Path) -> set[str]:
    """The documents the last build read, as whatcopy/sphinxext/build_guards.py recorded them from the
    list Sphinx itself acted on (its env-before-read-docs event)."""
    record = doctrees / "build_guards.json"
    assert record.exists(), f"{record} is missing: is build_guards in the extensions?"
    return set(json.loads(record.read_text(encoding="utf-8"))["read"])


def html_files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def differing_files(left: dict[str, bytes], right: dict[str, bytes]) -> list[str]:
    return sorted(name for name in left.keys() | right.keys() if left.get(name) != right.get(name))


def test_two_prints_of_a_book_compare_byte_for_byte(tmp_path):
    """book_differences, with which `python -m whatcopy compare` says where two books differ: a
    book is its own twin; a line moved by 0.4 point, another drawing, the same drawing written
    out again by another program, the other language's book and the other edition are not, and the
    difference is named (the sheet and the token, where there is one). On the book's first
    sheets (the cover, the contents, the home page, with their part of the outline), written out
    as a book of their own: each copy and comparison of the whole book's 450 sheets takes
    seconds."""
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, NameObject

    from whatcopy.site import book

    whole = book.book_file("en", "student", BUILD)
    english = tmp_path / "first-sheets.pdf"
    first = PdfWriter()
    first.append(whole, pages=(0, 8))
    first.write(english)
    assert len(first.pages) == 8 and first.outline, "no outline on the first sheets"
    assert book_differences(english, english) == []
    twin = tmp_path / "twin.pdf"
    twin.write_bytes(english.read_bytes())
    assert book_differences(twin, english) == []

    def shifted(by: float, text: bytes | None = None) -> Path:
        writer = PdfWriter(english)
        sheet = writer.pages[0]
        data = sheet.get_contents().get_data()
        data = re.sub(
            rb"(1 0 0 -1 [\d.]+ )([\d.]+)( Tm)",
            lambda m: m[1] + str(round(float(m[2]) + by, 2)).encode() + m[3],
            data,
            count=1,
        )
        if text:
            data = data.replace(b"Tj", text, 1)
        stream = ContentStream(None, writer)
        stream.set_data(data)
        sheet[NameObject("/Contents")] = writer._add_object(stream)
        target = tmp_path / f"shifted-{by}-{bool(text)}.pdf"
        writer.write(target)
        return target

    moved = book_differences(english, shifted(0.4))
    assert moved[:1] == ["the bytes"], f"a line 0.4 point away passed: {moved}"
    assert moved[1:] and moved[1].startswith("sheet 1: "), f"not said where: {moved}"
    assert book_differences(english, shifted(0, b"TJ"))[1:], "another drawing passed"
    rewritten = tmp_path / "rewritten.pdf"
    PdfWriter(english).write(rewritten)  # the same sheets, written by pypdf
    assert book_differences(english, rewritten) == ["the bytes"], "a rewritten file passed"
    chinese = book.book_file("zh", "student", BUILD)
    assert book_differences(whole, chinese), "the other language's book passed"
    teachers = book.book_file("en", "teacher", BUILD)
    assert book_differences(whole, teachers), "the other edition passed"


def test_two_kits_compare_member_by_member(tmp_path):
    """kit_differences, above, can fail: a member's bytes, a member missing."""

    def kit(name: str, members: dict[str, bytes]) -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as archive:
            for member, data in members.items():
                archive.writestr(member, data)
        return path

    one = kit("one.zip", {"k/README.md": b"a", "k/LICENSE": b"b"})
    assert kit_differences(one, kit("same.zip", {"k/README.md": b"a", "k/LICENSE": b"b"})) == []
    assert kit_differences(one, kit("edited.zip", {"k/README.md": b"x", "k/LICENSE": b"b"})) == [
        "k/README.md"
    ]
    assert kit_differences(one, kit("less.zip", {"k/README.md": b"a"})) == ["members ['k/LICENSE']"]


def test_the_compare_command_names_each_file_a_build_holds_otherwise(tmp_path, capsys):
    """`python -m whatcopy compare TESTED OTHER` (CI's fresh machine runs it against the tested
    build): 0 when every file of OTHER is in TESTED byte for byte (`.buildinfo` aside); else 1,
    naming each file missing or different."""
    from whatcopy.site import compare

    tested, other = tmp_path / "tested", tmp_path / "other"
    for site, page in ((tested, "<p>a</p>"), (other, "<p>a</p>")):
        (site / "en").mkdir(parents=True)
        (site / "en" / "index.html").write_text(page)
        (site / "en" / ".buildinfo").write_text(str(site))  # absolute folders: not compared
    assert compare.main([str(tested), str(other)]) == 0
    assert "the same, byte for byte: all 1 of its files" in capsys.readouterr().out
    (other / "en" / "index.html").write_text("<p>b</p>")
    (other / "en" / "new.html").write_text("<p>new</p>")
    assert compare.main([str(tested), str(other)]) == 1
    assert "differing: 2 of 2 files: en/index.html, en/new.html" in capsys.readouterr().out
    assert compare.main([str(tested), str(tmp_path / "none")]) == 2


EDITED, EDITED_PAGE = "memory/detach_frees_nothing", "memory"


@pytest.mark.slow
def test_builds_are_reproducible_and_an_edit_rebuilds_only_its_pages(tmp_path):
    """In a copy of the project (with the site build's snippet runs, so nothing runs):
    1. A clean build in one process gives, byte for byte, the site the suite tests, which was
       built with one process per core (`nox -s tests` builds it clean: a fresh clone has no
       build to reuse): the output depends neither on the machine's cores nor on the run.
    2. A rebuild with nothing changed reads nothing and changes no byte.
    3. Editing a snippet makes Sphinx read again exactly the pages that load it, and the
       snippet index (which lists every snippet's claim); only that snippet runs again; the
       course kit's downloads hold the edit.
    4. Undoing the edit rebuilds those pages again, and the site is then, byte for byte, the
       clean build of step 1: an incremental build gives what a clean build gives.
    The copy is given the tested PDF books and the records of what they were printed from: the
    clean build finds them unchanged (its pages are, byte for byte, those the books were printed
    from), prints nothing, and packs the teachers' kits that hold them, which are the tested
    ones byte for byte too (the copy is no git checkout: it is given the date the tested books
    say, as SOURCE_DATE_EPOCH; where a kit differs, the failure says where). That two prints of
    the same pages are the same bytes is checked where the books are printed a second time
    anyway, by CI's fresh-machine step (`python -m whatcopy compare`,
    docs/dev/decisions/0048-books-compared-on-the-fresh-machine.md): printing them here again
    cost a third of this suite's processor time."""
    from whatcopy.site import book

    tested_book = book.book_file("en", "student", BUILD)
    assert tested_book.exists(), f"{tested_book} is missing: python -m whatcopy build --book"
    project = build.copy_project(tmp_path, runs_from=BUILD)
    built = project / "docs/_build"
    env = {
        **os.environ,
        # (not the checkout's last commit: one made after the site was built moves it)
        "SOURCE_DATE_EPOCH": str(int(book.printed_date(tested_book).timestamp())),
        # the repository whose published site the downloads link to (the copy has no remote)
        "GITHUB_REPOSITORY": whatcopy_project.repository(ROOT),
    }

    def run(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", *command],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    tested_books = sorted(BUILD.glob("html/*/what-does-it-copy-*-*.pdf"))
    assert len(tested_books) == len(LANGUAGES) * len(book.EDITIONS), tested_books
    for path in [*tested_books, *BUILD.glob("book/*.json")]:
        (built / path.relative_to(BUILD)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, built / path.relative_to(BUILD))
    clean = run("whatcopy", "build", "--book", "--jobs", "1")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    differing = site_differences(BUILD / "html", built / "html")
    assert not differing, (
        f"files of a clean build that docs/_build/html lacks or holds otherwise: "
        f"{differing[:20]}; the books and archives among them differ in "
        f"{where_they_differ(BUILD / 'html', built / 'html', differing)}"
    )
    assert clean.stdout.count(" unchanged") == len(LANGUAGES), (
        "the clean build printed a book again, though its pages are the tested ones: "
        + clean.stdout
    )

    out, doctrees = built / "html/en", built / "doctrees/en"
    first = html_files(out)
    again = sphinx(project / "docs/en", out, doctrees, cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert read_docs(doctrees) == set(), again.stdout
    changed = differing_files(first, html_files(out))
    assert not changed, f"a rebuild with nothing changed rewrote {changed}"

    # (a snippet of a page whose cells run in half a second: any snippet would do)
    snippet = project / f"snippets/{EDITED}.py"
    original = snippet.read_text()
    snippet.write_text(original + "print('edited')\n")
    edited = sphinx(project / "docs/en", out, doctrees, cwd=project)
    assert edited.returncode == 0, edited.stdout + edited.stderr
    loaders = {p.docname for p in pages("en") if EDITED in {c.snippet for c in p.cells()}}
    assert loaders == {EDITED_PAGE}, loaders
    ran = set(re.findall(r"ran snippets/(\S+)\.py", edited.stdout))
    assert ran == {EDITED}, edited.stdout
    index_pages = {p.docname for p in pages("en") if "{snippet-index}" in p.text}
    assert read_docs(doctrees) == loaders | index_pages, edited.stdout
    assert "edited" in (out / f"{EDITED_PAGE}.html").read_text()
    # the search index is made again (site_search.py skips it only when no page changed)
    changed = differing_files(first, html_files(out))
    assert any(name.startswith("pagefind/fragment/") for name in changed), changed
    # the course kit's downloads are written again: the snippet, its page's notebook and the
    # archive hold the edit
    kit = out / "downloads"
    assert "print('edited')" in (kit / f"snippets/{EDITED}.py").read_text()
    assert "print('edited')" in (kit / f"notebooks/{EDITED_PAGE}.ipynb").read_text()
    with zipfile.ZipFile(kit / "snippets.zip") as archive:
        name = f"what-does-it-copy/snippets/{EDITED}.py"
        assert b"print('edited')" in archive.read(name)

    snippet.write_text(original)
    undone = sphinx(project / "docs/en", out, doctrees, cwd=project)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert read_docs(doctrees) == loaders | index_pages, undone.stdout
    changed = differing_files(first, html_files(out))
    assert not changed, f"the incremental build differs from a clean one in {changed}"


def test_a_changed_extension_discards_the_environment(tmp_path):
    """Sphinx re-reads every page when an extension's env_version changes: build_guards'
    env_version is a digest of every module of the package (whatcopy.incremental)."""
    from whatcopy import incremental
    from whatcopy.sphinxext import build_guards

    assert build_guards.setup.__globals__["source_version"] is incremental.source_version
    assert set(incremental.SOURCES) == set(incremental.PACKAGE.rglob("*.py"))
    copies = []
    for number, path in enumerate(incremental.SOURCES):
        copies.append(tmp_path / str(number) / path.name)
        copies[-1].parent.mkdir()
        copies[-1].write_bytes(path.read_bytes())
    before = incremental.source_version(copies)
    assert before == incremental.source_version()
    copies[1].write_text(copies[1].read_text() + "\n# an edit\n")
    assert incremental.source_version(copies) != before


def test_an_output_is_made_again_only_when_what_it_is_made_of_changed(tmp_path):
    """incremental.unless_unchanged, which the course kit, the search index and the books go
    through: the output is made the first time; not when its inputs and its files are as they
    were; again when its inputs changed, or a file of it is gone or altered; a subfolder others
    write is not its own."""
    from whatcopy.incremental import unchanged, unless_unchanged

    record = tmp_path / "doctrees" / "demo.json"
    out = tmp_path / "out"
    made = []

    def make() -> None:
        out.mkdir(exist_ok=True)
        (out / "a.txt").write_text("made")
        made.append(1)

    def run(inputs: str) -> bool:
        ahead = unchanged(record, inputs, out, skip=("others",))  # what a caller asks first
        made = unless_unchanged(record, inputs, out, make, skip=("others",))
        assert ahead != made, f"unchanged() said {ahead}, and it was made: {made}"
        return made

    assert run("v1") and made == [1]
    assert not run("v1"), "made again with nothing changed"
    (out / "others").mkdir()
    (out / "others" / "b.txt").write_text("another's")
    assert not run("v1"), "made again for a file another writes"
    assert run("v2"), "not made again when its inputs changed"
    (out / "a.txt").write_text("altered!")
    assert run("v2"), "not made again when its file was altered"
    (out / "a.txt").unlink()
    assert run("v2") and (out / "a.txt").exists(), "not made again when its file was gone"
    assert len(made) == 4


def test_a_no_op_book_build_starts_no_printer(tmp_path, monkeypatch, capsys):
    """make_books asks incremental.unchanged before it starts anything: with both languages'
    books made of what they were made of, it starts no process (one per language, each
    importing Sphinx and Playwright, is seconds on a busy machine) and prints none; with one
    language's page changed, it prints that language's books only."""
    from whatcopy.site import book

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the books' date, without git
    out = tmp_path / "_build"
    for language, (folder, _) in LANGUAGES.items():
        site = out / "html" / folder
        site.mkdir(parents=True)
        (site / "index.html").write_text(f"<p>{language}</p>")
        for edition in book.EDITIONS:
            book.book_file(language, edition, out).write_bytes(b"%PDF- a book")
        inputs = book.book_inputs(site, None)
        book.unless_unchanged(
            book.record_file(language, out), inputs, site, lambda: None, **book.FILES
        )

    def refused(*args, **kwargs):
        raise AssertionError(f"a process was started: {args}")

    printed = []
    monkeypatch.setattr(book.subprocess, "Popen", refused)
    monkeypatch.setattr(book, "singlehtml", lambda language, out: printed.append(language))
    monkeypatch.setattr(book, "print_books", lambda *args: {})
    made = book.make_books(list(LANGUAGES), out)
    assert printed == [] and capsys.readouterr().out.count(" unchanged") == len(LANGUAGES)
    assert set(made) == set(LANGUAGES)
    (out / "html" / LANGUAGES["zh"][0] / "index.html").write_text("<p>changed</p>")
    book.make_books(list(LANGUAGES), out)
    assert printed == ["zh"], printed


def test_a_page_that_warned_is_read_again(tiny_site):
    """Without -W (as in `nox -s preview`) a page with a problem would be skipped as up to date
    on the next build and its warning would vanish; build_guards reads it again until it is
    clean. A tiny site built in process, the same folders each time."""
    pages = {
        "index.rst": "Home\n====\n\n.. toctree::\n\n   good\n   bad\n",
        "good.rst": "Good\n====\n\nFine.\n",
        "bad.rst": "Bad\n===\n\n.. no-such-directive::\n",
    }

    def build() -> tuple[set[str], str]:
        # backdate: read again because it warned, not because it is newer
        site = tiny_site(pages, ["whatcopy.sphinxext.build_guards"], freshenv=False, backdate=True)
        return read_docs(Path(site.app.doctreedir)), site.warnings

    read, warned = build()
    assert read == {"index", "good", "bad"} and "no-such-directive" in warned, warned
    read, warned = build()
    assert read == {"bad"} and "no-such-directive" in warned, (read, warned)
    pages["bad.rst"] = "Bad\n===\n\nMended.\n"
    read, warned = build()
    assert read == {"bad"} and not warned, (read, warned)
    read, warned = build()
    assert read == set() and not warned, (read, warned)


PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

({name})=
# {name}

{cells}
"""

# Each case: a page of its own whose only cell loads snippets/demo/<page>.py, the snippet (None:
# no file), the cell's options, prose after the cell, and what the build must say about it.
BROKEN = {
    "missing": (
        None,
        "",
        "",
        "docs/en/missing.md:11: ERROR: snippet file not found: snippets/demo/missing.py",
    ),
    "hang": (
        '"""Never ends."""\nimport time\n\nwhile True:\n    time.sleep(0.1)\n',
        "",
        "",
        "snippets/demo/hang.py:4: still running after 2 s",
    ),
    "raises": (
        '"""Oops."""\nimport torch\n\na = torch.ones(2)\nb = a @ torch.ones(3)\nprint("never")\n',
        "",
        "",
        "snippets/demo/raises.py:5: unexpected RuntimeError",
    ),
    "untagged": (
        '"""Fails."""\nraise KeyError("k")  # raises KeyError\n',
        "",
        "",
        "snippets/demo/untagged.py is declared '# raises KeyError': give its cell",
    ),
    "tagged": (
        '"""Fine."""\nprint("x:", 1)\n',
        ":tags: [raises-exception]\n",
        "",
        "the cell of snippets/demo/tagged.py is tagged raises-exception",
    ),
    "reference": ('"""Fine."""\nprint("x:", 1)\n', "", "See [](nowhere.md).", "nowhere"),
    "quoted": (
        '"""Fine."""\nprint("x:", 1)\n',
        "",
        "Value {out}`demo/quoted:y`.",
        "{out}`demo/quoted:y`: snippets/demo/quoted.py printed no line 'y: ...'",
    ),
}


def broken_site(tmp_path: Path) -> Path:
    """An English site with one page per BROKEN case, and an index that lists them."""
    project = build.copy_project(tmp_path)
    shutil.rmtree(project / "docs" / "en")
    (project / "docs" / "en").mkdir()
    shutil.copy(DOCS / "en" / "conf.py", project / "docs" / "en" / "conf.py")
    (project / "snippets" / "demo").mkdir()
    for name, (snippet, options, prose, _) in BROKEN.items():
        if snippet is not None:
            (project / "snippets" / "demo" / f"{name}.py").write_text(snippet)
        cell = (
            f"```{{code-cell}} python\n:load: ../../snippets/demo/{name}.py\n{options}```\n\n"
            f"{prose}"
        )
        (project / "docs" / "en" / f"{name}.md").write_text(PAGE.format(name=name, cells=cell))
    toctree = "```{toctree}\n" + "\n".join(BROKEN) + "\n```\n"
    (project / "docs" / "en" / "index.md").write_text(
        "(home)=\n# Demo\n\n" + toctree, encoding="utf-8"
    )
    return project


def build_broken(project: Path, **env) -> str:
    """Build the site; it must fail and leave nothing to publish. Returns what it printed."""
    result = subprocess.run(
        [sys.executable, "-m", "whatcopy", "build", "en"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    assert result.returncode != 0, "the build should have failed:\n" + result.stdout + result.stderr
    assert not (project / "docs/_build/html/en").exists(), "a failed build left pages to publish"
    return result.stdout + result.stderr


def test_runs_that_fail_stop_the_languages_builds_before_they_read_a_page(tmp_path):
    """`python -m whatcopy build` starts the languages' Sphinx processes while it runs the
    snippets, and tells them on a pipe when the runs are made (whatcopy/site/build.py): when the
    runs fail instead (here: a fork server that cannot start, seeded), each build stops before
    it reads a page, the build exits naming the failure, and nothing is published."""
    project = build.copy_project(tmp_path)
    seeded = (
        "import sys\n"
        "from whatcopy.site import build\n"
        "def run_snippets(languages, folder):\n"
        "    sys.exit('the snippets could not be run: seeded server failure')\n"
        "build.run_snippets = run_snippets\n"
        "build.build_languages(['en', 'zh'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", seeded], cwd=project, capture_output=True, text=True, check=False
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "seeded server failure" in output, output
    assert output.count("the snippets' runs were not made") == len(LANGUAGES), output
    built = project / "docs/_build"
    assert not list(built.glob("html/*/*.html")), "a build whose runs failed published pages"
    assert not list(built.glob("doctrees/*/*.doctree")), "a build whose runs failed read pages"


@pytest.mark.slow
def test_a_broken_snippet_stops_the_build_and_is_named_every_time(tmp_path):
    """Each kind of broken snippet or cell (BROKEN) stops the build with a message naming its
    file and line; the build reports them all at once (--keep-going), and reports them all
    again when run again, since Sphinx would otherwise skip the pages as already read."""
    project = broken_site(tmp_path)
    for attempt in ("first build", "second build"):
        output = build_broken(project, SNIPPET_TIMEOUT="2")
        unreported = [name for name, case in BROKEN.items() if case[-1] not in output]
        assert not unreported, f"{attempt} did not report {unreported}:\n{output}"


# A tiny site's extensions with build_guards, and without it (the seeded fault: Sphinx alone)
GUARDED = ["myst_parser", "whatcopy.sphinxext.build_guards"]
SPHINX_ALONE = ["myst_parser"]


def edit_newer(path: Path, text: str) -> None:
    """Edit a tiny site's page for its next incremental build: an hour newer than that build
    will read it, the other pages an hour older (their first build backdates them; tiny_site
    leaves alone a file whose text is the same), which is what Sphinx compares with the time it
    read them, whatever the clock does meanwhile."""
    path.write_text(text, encoding="utf-8")
    later = time.time() + 3600
    os.utime(path, (later, later))


def test_a_page_linking_to_an_edited_heading_is_written_again(tiny_site, tmp_path):
    """A link whose text is another page's heading is resolved when its own page is written, so
    an incremental build that reads only the edited page must still write the pages that link to
    it: build_guards' LinksBetweenPages hands them to Sphinx. Without it, the other page keeps the
    old heading (seeded below), and a label removed from the edited page is no dead link until a
    clean build. A page whose links give their own text and still land where they did is not
    written again. A tiny site built in process, the same folders each time."""
    pages = {
        "index.md": "# Home\n\n```{toctree}\ntarget\nlinks\nplain\nown\n```\n",
        "links.md": "# Links\n\nSee {ref}`the-section` and [](target.md#the-section).\n",
        "plain.md": "# Plain\n\nNo link.\n",
        "own.md": "# Own words\n\nSee [the section](target.md#the-section).\n",
    }

    def build(extensions, name, target):
        first = not (tmp_path / name / "src" / "target.md").exists()
        if not first:
            edit_newer(tmp_path / name / "src" / "target.md", target)
        return tiny_site(
            {**pages, "target.md": target}, extensions, name=name, backdate=first, freshenv=False
        )

    for extensions, name in ((GUARDED, "guarded"), (SPHINX_ALONE, "seeded")):
        site = build(extensions, name, "# Target\n\n(the-section)=\n## Old heading\n\nText.\n")
        assert site.status == 0, site.warnings
        assert site.html("links").count("Old heading") == 2, site.html("links")
        own = Path(site.out / "own.html").stat().st_mtime_ns
        site = build(extensions, name, "# Target\n\n(the-section)=\n## New heading\n\nText.\n")
        links = site.html("links")
        if extensions is GUARDED:
            assert read_docs(Path(site.app.doctreedir)) == {"target"}, site.warnings
            assert Path(site.out / "own.html").stat().st_mtime_ns == own, "own.html written again"
            assert links.count("New heading") == 2 and "Old heading" not in links, links
        else:  # the seeded fault: Sphinx alone writes the old text again
            assert links.count("Old heading") == 2, links

    site = build(GUARDED, "guarded", "# Target\n\n## New heading\n\nThe label is gone.\n")
    assert "links.md" in site.warnings and "own.md" in site.warnings, site.warnings


def test_a_new_title_or_a_new_page_writes_every_page_again(tiny_site, tmp_path):
    """Every page's navigation shows the titles and the order of all pages, so a page read again
    with a new title, or a toctree that lists pages otherwise, makes the incremental build write
    every page (build_guards); Sphinx alone leaves the old title in the other pages (seeded)."""
    pages = {
        "index.md": "# Home\n\n```{toctree}\ntarget\nlinks\n```\n",
        "links.md": "# Links\n\nNo link here.\n",
        "target.md": "# Old title\n\nText.\n",
        "extra.md": "# Extra page\n\nText.\n",
    }

    def edit(name, page, text):
        edit_newer(tmp_path / name / "src" / page, text)
        pages[page] = text

    for extensions, name in ((GUARDED, "guarded"), (SPHINX_ALONE, "seeded")):
        pages["target.md"] = "# Old title\n\nText.\n"
        pages["index.md"] = "# Home\n\n```{toctree}\ntarget\nlinks\n```\n"
        tiny_site(pages, extensions, name=name, backdate=True, freshenv=False)
        edit(name, "target.md", "# New title\n\nText.\n")
        links = tiny_site(pages, extensions, name=name, freshenv=False).html("links")
        if extensions is GUARDED:
            assert "New title" in links and "Old title" not in links, links
            edit(name, "index.md", "# Home\n\n```{toctree}\ntarget\nlinks\nextra\n```\n")
            links = tiny_site(pages, extensions, name=name, freshenv=False).html("links")
            assert "Extra page" in links, links
        else:
            assert "Old title" in links, links
