"""Build guards: a build never passes on stale work. Inside Sphinx, so `python -m whatcopy build`,
`nox -s preview`, `nox -s linkcheck` and a plain `sphinx-build` all get them.

* A changed extension re-reads every page. Sphinx re-reads pages whose sources changed, not
  those whose extensions did; but it discards a saved environment when an extension's
  ``env_version`` differs. This extension's ``env_version`` is a digest of the source of every
  module of the package (``whatcopy.incremental.source_version``).
* A page that had a problem is read again. Sphinx discards its environment when a build stops
  on an error (``-W``), but where warnings do not stop it (``nox -s preview``) it saves the
  environment, finds the page up to date next time, skips it, and the warning is gone. Pages
  that a warning or error was logged at are listed in ``<doctrees>/build_guards.json`` and
  handed back to Sphinx as outdated until they build cleanly.
* Every page links myst-nb's stylesheet the same way. Sphinx adds a ``?v=<checksum>`` to a
  stylesheet link when the file is already in the output, and myst-nb copies its stylesheet only
  at the end of a build: a clean build's pages link it bare, a later build's pages with ``?v=``,
  so a no-op rebuild rewrote the pages Sphinx always writes (search, index of terms). It is
  copied before any page is written instead.
* A record an extension keeps per page in the environment (``PageRecords``, Sphinx's
  ``EnvironmentCollector`` for a dict ``env.<name>``, page -> record) goes with the page when
  it is read again or removed, and the records of parallel readers are merged, so it never
  speaks of a page as it was.
* Which documents Sphinx read is recorded in the same file (``"read"``), for the tests: an
  event handler sees the list Sphinx acts on, where a log can be coloured, reworded or parallel.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import logging as sphinx_logging

from whatcopy.incremental import source_version

RECORD = "build_guards.json"


class _Problems(logging.Handler):
    """Collects the documents that a warning or error was logged at."""

    def __init__(self, app: Sphinx):
        super().__init__(logging.WARNING)
        self.app = app
        self.docnames: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        env = getattr(self.app, "env", None)
        location = getattr(record, "location", None)
        if env is None or location is None:
            return
        if isinstance(location, tuple):
            location = location[0]
        elif not isinstance(location, str):  # a node
            location = getattr(location, "source", None) or ""
        path = str(location).split(":")[0]
        docname = location if location in env.found_docs else env.path2doc(path)
        if docname:
            self.docnames.add(docname)


def _record(app: Sphinx) -> Path:
    return Path(app.doctreedir) / RECORD


def _load(app: Sphinx) -> dict:
    try:
        return json.loads(_record(app).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}


def _save(app: Sphinx, **fields) -> None:
    data = {**_load(app), **fields}
    _record(app).parent.mkdir(parents=True, exist_ok=True)
    _record(app).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def failed_last_time(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    return sorted(set(_load(app).get("failed", [])) & env.found_docs - set(removed))


def note_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    _save(app, read=sorted(docnames), failed=sorted(set(_load(app).get("failed", []))))


def note_failures(app: Sphinx, exception: BaseException | None) -> None:
    handler: _Problems = app._build_guards_handler  # type: ignore[attr-defined]
    sphinx_logging.getLogger("sphinx").logger.removeHandler(handler)
    failed = set(handler.docnames)
    if exception is not None and not failed:
        failed = set(app.env.found_docs) if getattr(app, "env", None) else set()
    read = set(_load(app).get("read", []))
    # A page read again and clean is no longer failed; one not read keeps its mark.
    still = (set(_load(app).get("failed", [])) - read) | failed
    _save(app, failed=sorted(still))


def stylesheet_first(app: Sphinx) -> None:
    from myst_nb.sphinx_ext import add_global_html_resources

    if app.builder.format == "html":
        (Path(app.outdir) / "_static").mkdir(parents=True, exist_ok=True)
        # upstream: myst-nb-stylesheet-late
        add_global_html_resources(app, None)  # copies mystnb.<hash>.css


class PageRecords(EnvironmentCollector):
    """Sphinx's collector of per-page data for ``env.<name>``, a dict from page to an extension's
    record of it (written while the page is parsed, by its directives): a page's record goes
    when the page is read again or removed, and each parallel reader's records are merged into
    the main environment. An extension subclasses it with its ``name`` and registers it with
    ``app.add_env_collector``."""

    name = ""  # the environment's attribute

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        records_of(env, self.name).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames, other) -> None:
        records = records_of(env, self.name)
        theirs = getattr(other, self.name, {})
        records.update({docname: theirs[docname] for docname in docnames if docname in theirs})

    def process_doc(self, app: Sphinx, doctree) -> None:
        """Nothing: the records are written while the page is parsed."""


def records_of(env: BuildEnvironment, name: str) -> dict:
    """``env.<name>`` (see PageRecords), made empty the first time."""
    if not hasattr(env, name):
        setattr(env, name, {})
    return getattr(env, name)


def setup(app: Sphinx):
    handler = _Problems(app)
    app._build_guards_handler = handler  # type: ignore[attr-defined]
    sphinx_logging.getLogger("sphinx").logger.addHandler(handler)
    app.connect("builder-inited", stylesheet_first)
    app.connect("env-get-outdated", failed_last_time)
    app.connect("env-before-read-docs", note_read)
    app.connect("build-finished", note_failures)
    return {
        "env_version": source_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
