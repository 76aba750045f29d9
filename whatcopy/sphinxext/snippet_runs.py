"""Snippet runs: each code cell shows its snippet's run, made on the fork server before the
page is read.

One job: the outputs under the code cells.
- Before Sphinx reads pages (env-before-read-docs, in its main process, before any parallel
  reader starts), the snippets of the pages it will read that have no current run are run
  (whatcopy/core/runs.py, on whatcopy/core/runner.py's fork server: torch imported once, a
  fork per snippet) into ``<whatcopy_build_dir>/runs/``. ``python -m whatcopy build`` runs
  every language's snippets itself, and tells the languages' Sphinx processes so
  (``whatcopy_run_snippets = False``): they only read the runs, and no build waits for another.
  It starts them while it runs the snippets, and they wait, at that same point, until it
  writes on a pipe that the runs are made (``whatcopy_runs_ready_fd``): their start (imports,
  configuration, theme) overlaps the runs, and nothing is polled.
- myst-nb executes nothing (``nb_execution_mode = "off"``); as it reads a page, the cells get
  their snippets' outputs (whatcopy/execution/notebooks.py), which it renders as an executed
  notebook's.
- After a page is read, a cell whose run had problems (an exception its snippet does not
  declare, output on stderr, a hang) is an error naming the snippet's file and line, from that
  same run: nothing is run again to say where.
"""

from __future__ import annotations

import os
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import SphinxError
from sphinx.util import logging

from whatcopy import project
from whatcopy.content import pages
from whatcopy.core import runs
from whatcopy.core.snippets import SnippetError
from whatcopy.execution import clean_env, notebooks

logger = logging.getLogger(__name__)

# The build folder of the build this process is making (set at builder-inited; None outside a
# build with this extension): where create_client finds the runs.
_BUILD: list[Path] = []


def build_folder(app: Sphinx) -> Path:
    return Path(app.config.whatcopy_build_dir or project.current().build)


def page_snippets(app: Sphinx, docnames) -> list:
    """The snippets the pages `docnames` load (a page myst-nb cannot read is skipped here and
    reported when Sphinx reads it)."""
    found = []
    for docname in docnames:
        page = Path(app.env.doc2path(docname))
        if page.suffix != ".md":
            continue
        try:
            cells = pages.read(page).cells
        except pages.PageError:
            continue
        for cell in cells:
            snippet = None if cell.load is None else notebooks.cell_snippet(page, cell.load)
            if snippet is not None:
                found.append(snippet)
    return found


READY = b"ready"  # what `python -m whatcopy build` writes to whatcopy_runs_ready_fd


def wait_for_runs(fd: int) -> None:
    """Wait until `python -m whatcopy build`, which started this build while it ran the
    snippets, says on the pipe `fd` that the runs are made (it writes READY and closes it):
    one blocking read, nothing polled. A pipe closed without READY (the runs failed, or that
    process was stopped) stops this build before it reads a page."""
    with os.fdopen(fd, "rb") as pipe:
        said = pipe.read()
    if said != READY:
        raise SphinxError(
            "the snippets' runs were not made (`python -m whatcopy build` stopped): "
            "this build reads no page"
        )


def run_snippets(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if app.config.whatcopy_runs_ready_fd >= 0:
        wait_for_runs(app.config.whatcopy_runs_ready_fd)
    if not app.config.whatcopy_run_snippets:
        return
    build = build_folder(app)
    try:
        ran = runs.run_missing(
            page_snippets(app, docnames), build, python_for=clean_env.interpreters(build)
        )
    except (SnippetError, RuntimeError) as exc:  # (a server or an interpreter that fails)
        logger.error("the snippets could not be run: %s", exc)
        return
    for snippet in ran:
        logger.info("ran %s", snippet.rel)


def start(app: Sphinx) -> None:
    _BUILD[:] = [build_folder(app)]


def stop(app: Sphinx, exception: BaseException | None) -> None:
    _BUILD.clear()


def create_client(original):
    """myst-nb's create_client, which first fills the notebook with the runs (in a build with
    this extension)."""

    def create_client(notebook, source, nb_config, logger, read_fmt=None):
        if _BUILD and nb_config.execution_mode == "off":
            notebooks.fill(notebook, Path(source), _BUILD[0])
        return original(notebook, source, nb_config, logger, read_fmt)

    create_client.fills_runs = True
    return create_client


def report_problems(app: Sphinx, doctree) -> None:
    """Each cell whose snippet's run had problems, or that has no run, is an error at the cell."""
    from whatcopy.sphinxext.snippet_cells import _cell_snippet, _cells

    env = app.env
    for cell in _cells(doctree):
        snippet = _cell_snippet(env, cell)
        if not snippet.path.is_file():
            continue  # (snippet_cells reported it)
        try:
            run = runs.load(build_folder(app), snippet)
        except ValueError:  # not under snippets/ or generators/ (snippet_cells reported it)
            continue
        if run is None:
            logger.error(
                "%s has not been run: build with `python -m whatcopy build`, which runs it",
                snippet.rel,
                location=cell,
            )
        elif run["problems"]:
            logger.error(
                "executing this page failed in %s:\n%s",
                snippet.rel,
                "\n".join(run["problems"]),
                location=cell,
            )


def setup(app: Sphinx):
    import myst_nb.sphinx_

    # Whether this build runs the snippets its pages need (a plain sphinx-build), or only reads
    # the runs that `python -m whatcopy build` made before it started (False).
    app.add_config_value("whatcopy_run_snippets", True, "", bool)
    # A pipe to wait on before reading pages, from `python -m whatcopy build`, which starts the
    # languages' builds while it runs the snippets (-1: none, the runs are there).
    app.add_config_value("whatcopy_runs_ready_fd", -1, "", int)
    if not getattr(myst_nb.sphinx_.create_client, "fills_runs", False):
        # upstream: myst-nb-outputs-from-elsewhere
        myst_nb.sphinx_.create_client = create_client(myst_nb.sphinx_.create_client)
    app.connect("builder-inited", start)
    app.connect("env-before-read-docs", run_snippets)
    app.connect("doctree-read", report_problems)
    app.connect("build-finished", stop)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
