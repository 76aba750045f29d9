"""The fixtures the test modules share: the built site (`built_site`: the one place that says
the site must be built first), tiny sites of one to three pages built in process with
sphinx.testing (`tiny_site`); the order tests start in (the slow ones first); and
what the suite prints at its end besides pass and fail: the figures tests measured.

Tests add lines to ``config.stash[NOTES]``. Under pytest-xdist each worker process keeps its
own; a worker hands its lines to the controlling process when it finishes (``workeroutput``),
and the controller prints them with its summary.
"""

import dataclasses
import gc
import io
import os
import textwrap
import time
from pathlib import Path

import pytest
from project import BUILD, HTML, LANGUAGES, NOTES

import whatcopy

# The tests parse the built pages and keep the trees (tests/project.py, parsed_html), millions of
# objects: at Python's default the cyclic collector ran about 2 300 times in a worker, 10 % of its
# CPU (2.9 of 28.5 CPU-s over the page, claim and HTML checks); as in the site's builds
# (docs/dev/decisions/0042), 27 times and 0.5 CPU-s.
whatcopy.collect_garbage_less_often()


@dataclasses.dataclass(frozen=True)
class BuiltSite:
    """The site `python -m whatcopy build` made in docs/_build (the tests read, never write it)."""

    build: Path
    html: Path

    def page(self, language: str, docname: str) -> Path:
        """A page's HTML file; `language`: its source folder (en, zh)."""
        return self.html / LANGUAGES[language][0] / f"{docname}.html"

    def doctrees(self, language: str) -> Path:
        return self.build / "doctrees" / LANGUAGES[language][0]


@pytest.fixture(scope="session")
def built_site() -> BuiltSite:
    """The built site, both languages and the root pages; a test that reads it asks for this
    fixture, which fails (once, with the command to run) when there is none."""
    missing = [
        path
        for path in (
            HTML / "index.html",
            *(HTML / folder / "index.html" for folder, _ in LANGUAGES.values()),
            *(
                BUILD / "doctrees" / folder / "environment.pickle"
                for folder, _ in LANGUAGES.values()
            ),
        )
        if not path.exists()
    ]
    if missing:
        pytest.fail(
            f"no built site: {', '.join(str(p) for p in missing)} missing; build it first "
            "(python3 -m nox -s docs, or .nox/quick/bin/python -m whatcopy build)",
            pytrace=False,
        )
    return BuiltSite(BUILD, HTML)


@dataclasses.dataclass
class TinySite:
    """A site of a few pages built in process: its app (env, config), pages' HTML, warnings."""

    app: object
    out: Path
    warnings: str
    status: int = 0  # the build's exit status: 1 when a strict build met a warning or error

    def html(self, docname: str = "index") -> str:
        return (self.out / f"{docname}.html").read_text(encoding="utf-8")


@pytest.fixture
def tiny_site(tmp_path):
    """Build a tiny site (one to three pages) with sphinx.testing's SphinxTestApp: the one way
    the tests build Sphinx in process. `tiny_site(pages, extensions, language=..., conf=...,
    name=...)`: `pages` maps a file name (index.md, bad.rst) to its text; `conf` is more of
    conf.py; the same `name` again builds the same folders again (an incremental build, with
    `freshenv=False`). `backdate`: the sources' times set an hour back, so that only what
    Sphinx records, not a clock stepping back between writing and reading (a virtual machine's,
    being corrected), decides which pages it reads again. `strict`: warnings fail the build
    (`status` is then 1), as `python -m whatcopy build` runs Sphinx (-W --keep-going)."""
    import sphinx.locale
    from sphinx.testing.util import SphinxTestApp

    def build(
        pages: dict[str, str],
        extensions: list[str],
        language: str = "en",
        conf: str = "",
        name: str = "",
        freshenv: bool = True,
        backdate: bool = False,
        strict: bool = False,
    ) -> TinySite:
        name = name or f"site-{language}"
        source = tmp_path / name / "src"
        source.mkdir(parents=True, exist_ok=True)
        # source_suffix given as a dict of its own: Sphinx merges the extensions' suffixes into
        # the dict it is given, and its default is one dict for the whole process, so a build
        # with myst_nb left `.md: myst-nb` behind for the next build in the worker, which then
        # had no parser for it (https://github.com/sphinx-doc/sphinx/issues/11795, Sphinx 8.2)
        (source / "conf.py").write_text(
            f"extensions = {extensions!r}\nlanguage = {language!r}\n"
            "source_suffix = {'.rst': 'restructuredtext'}\n" + textwrap.dedent(conf),
            encoding="utf-8",
        )
        for page, text in pages.items():
            path = source / page
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
        if backdate:
            hour_ago = time.time() - 3600
            for path in source.iterdir():
                os.utime(path, (hour_ago, hour_ago))
        warnings = io.StringIO()
        # Sphinx keeps its translations per process, and defaults such as numfig_format are
        # translated: a build that left them Chinese changed the configuration of the next
        # build in the worker, which then read every page again (SphinxTestApp's cleanup resets
        # them after a build; this, before)
        sphinx.locale.translators.clear()
        app = SphinxTestApp(
            "html",
            srcdir=source,
            builddir=tmp_path / name / "out",
            freshenv=freshenv,
            status=io.StringIO(),
            warning=warnings,
            warningiserror=strict,
        )
        try:
            app.build()
        finally:
            app.cleanup()
        return TinySite(app, Path(app.outdir), warnings.getvalue(), app.statuscode)

    return build


def pytest_collection_modifyitems(config, items):
    """The tests marked `slow` (throwaway builds of 30 to 45 s, snippets waiting out timeouts)
    first, then those marked `long` (one browser tab running hundreds of queries), the rest in
    their files' order. pytest-xdist's work stealing hands an idle worker tests from the end of
    the other's queue: a build taken last ran alone while the other core idled (measured: the
    reproducible-build test started at 288 s of a 336 s run); so did the 24 s run of the search's
    test half, which ended one worker 11 s after the other."""
    items.sort(
        key=lambda item: (
            item.get_closest_marker("slow") is None,
            item.get_closest_marker("long") is None,
        )
    )  # (a stable sort)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """A worker hands its notes to the controller (before pytest-xdist's own hook sends them).
    Then, every test having run, what is still alive is collected one last time and frozen
    (`gc.freeze`), so that pytest's collections at unconfigure (which look for exceptions raised
    in finalizers) and the interpreter's at exit skip the parsed pages and books the tests kept
    (1.3 to 1.9 million objects in a worker). Measured on the full suite: the run ended 7.7 s
    after the last worker's tests had; 1.7 s with the heap frozen."""
    if hasattr(session.config, "workeroutput"):  # in a pytest-xdist worker
        session.config.workeroutput["notes"] = list(session.config.stash.get(NOTES, []))
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):  # in the controller, as each worker finishes
    notes = getattr(node, "workeroutput", {}).get("notes", [])
    node.config.stash.setdefault(NOTES, []).extend(notes)


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(NOTES, []):
        terminalreporter.write_line(line)
