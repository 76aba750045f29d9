"""Fast kernels: an executed page costs what its cells cost, not a new interpreter.

One job: how the build's Jupyter kernels start and stop.
- Start: when a build reads pages, it starts a kernel server
  (whatcopy/execution/kernels.py) that imports torch, NumPy and ipykernel once, when the first kernel is
  asked for (not at all when every page comes from the cache); each page's kernel is
  a real ipykernel forked from it, as fresh for its cells as a new one, in about 0.5 s instead of
  about 2.5 s. The server stops when the build finishes (or its process ends).
- Stop: nbclient shuts each page's kernel down gracefully, waiting for it to run its exit
  hooks, which costs about 0.8 s per executed page; snippets have no clean-up to do, so the
  build asks for an immediate shutdown. myst-nb hands no such option down to jupyter-cache and
  nbclient, so this sets the default of nbclient's own (configurable) `shutdown_kernel` trait.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from whatcopy.execution import kernels


def start_server(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Before Sphinx reads (and, with -j, forks its readers). The server imports nothing until
    a kernel is asked for, so a build that executes nothing pays only for starting it; when a
    page is to be executed (its cells are not in the cache), it is asked to import at once,
    while Sphinx reads, instead of when that page's kernel starts (an edited snippet's page,
    2 s of imports, then overlap Sphinx's reading)."""
    if docnames and getattr(app, "_kernel_server", None) is None:
        app._kernel_server = kernels.serving()
        folder = app._kernel_server.__enter__()
        if to_execute(app, env, docnames):
            kernels.warm_up(folder)


def start_early(app: Sphinx, config) -> None:
    """When a page or a snippet is newer than the last build's environment, a page will most
    likely execute: start the server and its imports at once (config-inited), so that they
    overlap Sphinx's loading of its environment and theme, about 1.5 s, instead of following
    it (start_server would start it just before the first page is read, and that page would
    wait for `import torch`). A clean build, or one with nothing newer, waits for start_server
    to know; so does a build that reuses another's execution."""
    import os

    from whatcopy.core.transcripts import GENERATORS, SNIPPETS
    from whatcopy.sphinxext.build_guards import AFTER

    environment = Path(app.doctreedir) / "environment.pickle"
    if os.environ.get(AFTER) or config.nb_execution_mode != "cache" or not environment.exists():
        return
    built = environment.stat().st_mtime
    sources = [*Path(app.srcdir).rglob("*.md"), *SNIPPETS.rglob("*.py"), *GENERATORS.glob("*.py")]
    if any(path.stat().st_mtime > built for path in sources):
        app._kernel_server = kernels.serving()
        kernels.warm_up(app._kernel_server.__enter__())


def to_execute(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> bool:
    """Whether a page among `docnames` will execute: it has code cells that jupyter-cache holds
    no record of, as myst-nb looks them up (the kernelspec, and each cell's source and
    metadata). Not for a build that reuses another's execution (build_guards: WHATCOPY_AFTER)."""
    import os

    import nbformat
    from jupyter_cache import get_cache

    from whatcopy.content import pages
    from whatcopy.sphinxext.build_guards import AFTER

    if os.environ.get(AFTER) or app.config.nb_execution_mode != "cache":
        return False
    cache = get_cache(app.config.nb_execution_cache_path)
    for docname in docnames:
        path = Path(env.doc2path(docname))
        if path.suffix != ".md":
            continue
        page = pages.read(path)
        if not page.cells:
            continue
        notebook = nbformat.v4.new_notebook(
            metadata={"kernelspec": page.metadata.get("kernelspec")},
            cells=[nbformat.v4.new_code_cell(c.body, metadata=c.options) for c in page.cells],
        )
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            return True
    return False


def stop_server(app: Sphinx, exception: Exception | None) -> None:
    server = getattr(app, "_kernel_server", None)
    if server is not None:
        app._kernel_server = None
        server.__exit__(None, None, None)


def setup(app: Sphinx):
    from nbclient import NotebookClient

    NotebookClient.shutdown_kernel.default_value = "immediate"
    app.connect("config-inited", start_early)
    app.connect("env-before-read-docs", start_server)
    app.connect("build-finished", stop_server)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
