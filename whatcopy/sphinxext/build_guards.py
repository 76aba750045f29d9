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
* A page whose links changed is written again. Sphinx writes the pages it read, but a link
  whose text is the other page's heading (``{ref}`label``` or ``[](page.md#id)``) is resolved
  when its own page is written: an edited heading left the old text in every other page in an
  incremental build, and a removed label left a dead link unreported until a clean build.
  ``LinksBetweenPages`` records each page's links as it is read and, after each build's reading,
  where each lands and the text it takes from there; it hands Sphinx (``env-get-updated``) the
  pages not read whose links now land nowhere, elsewhere or with another text: they are written
  again (not read), so their link texts are current and a dead link warns. Where a page read
  again has a new title or lists other pages otherwise (its toctree), every page is written
  again: each page's navigation shows the titles and the order of all of them
  (docs/dev/decisions/0043-pages-linking-to-a-read-page-are-written-again.md).
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
from sphinx.util import docname_join
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
    app._build_guards_read = set(docnames)  # type: ignore[attr-defined]
    app._build_guards_shape = _shape(env, docnames)  # type: ignore[attr-defined]
    _save(app, read=sorted(docnames), failed=sorted(set(_load(app).get("failed", []))))


def _shape(env: BuildEnvironment, docnames) -> dict:
    """What of these pages every page's navigation shows: their titles and the pages they list."""
    return {
        docname: (
            env.titles[docname].astext() if docname in env.titles else None,
            env.toctree_includes.get(docname, []),
        )
        for docname in docnames
    }


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


class LinksBetweenPages(PageRecords):
    """Each page's cross-references as it was read (domain, type, target, the page it is
    relative to, whether its text is its own, the #id it goes to), and, once Sphinx has read
    this build's pages, the pages not read that one of their links makes stale: Sphinx writes
    them again (module docstring). A link is stale when it lands on no page, on another page or with another text
    than at the last build (its label moved, the heading it shows was edited), or on a page read
    again where its #id is not one that page is known to have (a label or a heading's slug).
    Where each link landed, and the text it took from there, is kept in ``env.whatcopy_landed``."""

    name = "whatcopy_links"
    landed = "whatcopy_landed"

    def process_doc(self, app: Sphinx, doctree) -> None:
        from sphinx import addnodes

        docname = app.env.docname
        records_of(app.env, self.name)[docname] = sorted(
            {
                (
                    node.get("refdomain") or "",
                    node.get("reftype") or "",
                    node.get("reftarget") or "",
                    node.get("refdoc") or docname,
                    # a term's text is the citing page's own; a ref's, unless given, the target's
                    bool(node.get("refexplicit")) or node.get("reftype") == "term",
                    node.get("reftargetid") or "",  # the #id of a link to a page
                )
                for node in doctree.findall(addnodes.pending_xref)
            }
        )

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        read = getattr(app, "_build_guards_read", set())
        if not read:
            return []
        std = env.domains.standard_domain
        labels = {**std.anonlabels, **{k: v[:2] for k, v in std.labels.items()}}

        def lands_on(domain: str, kind: str, target: str, base: str, *_) -> str | None:
            if (domain, kind) == ("std", "ref"):
                return labels.get(target.lower(), (None,))[0]
            if (domain, kind) == ("std", "term"):
                found = std.objects.get(("term", target)) or std.objects.get(
                    ("term", target.lower())
                )
                return found[0] if found else None
            if (domain, kind) in (("std", "doc"), ("doc", "myst")):
                docname = docname_join(base, target.removesuffix(".md"))
                return docname if docname in env.all_docs else None
            return ""  # (a domain not followed: no page to compare with)

        def shown(link: tuple, there: str | None) -> str | None:
            """The text a link takes from the page it lands on (the heading of its section, or
            the page's title): "" for a link that gives its own; None where it is not known
            here (a #id that is no label or slug of the page: a section's own id)."""
            domain, kind, target, _, own, anchor = link
            if there is None:
                return None
            if (domain, kind) == ("std", "ref"):  # (where it lands, lands_on found)
                label = std.labels.get(target.lower())
                return "" if own else label[2] if label and label[0] == there else None
            if (domain, kind) not in (("std", "doc"), ("doc", "myst")):
                return ""
            if not anchor:
                return "" if own else env.titles[there].astext() if there in env.titles else None
            slug = env.metadata.get(there, {}).get("myst_slugs", {}).get(anchor)
            label = std.labels.get(anchor.lower())
            if own:
                return "" if slug or labels.get(anchor.lower(), (None,))[0] == there else None
            return slug[2] if slug else label[2] if label and label[0] == there else None

        links = records_of(env, self.name)
        before = records_of(env, self.landed)
        now = {
            docname: [[there := lands_on(*link), shown(link, there)] for link in mine]
            for docname, mine in links.items()
        }
        setattr(env, self.landed, now)
        if _shape(env, read) != app._build_guards_shape:  # type: ignore[attr-defined]
            return sorted(env.found_docs - read)

        def stale(docname: str) -> bool:
            was = before.get(docname, [])
            if len(was) != len(now[docname]):
                return True
            return any(
                there is None or [there, text] != then or (there in read and text is None)
                for (there, text), then in zip(now[docname], was)
            )

        return sorted(docname for docname in links if docname not in read and stale(docname))


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
    app.add_env_collector(LinksBetweenPages)
    return {
        "env_version": source_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
