"""Fast kernels: an executed page costs what its cells cost, not a new interpreter.

One job: how the build's Jupyter kernels start and stop.
- Start: when a build reads pages, it starts a kernel server
  (whatcopy/kernels.py) that imports torch, NumPy and ipykernel once, when the first kernel is
  asked for (not at all when every page comes from the cache); each page's kernel is
  a real ipykernel forked from it, as fresh for its cells as a new one, in about 0.5 s instead of
  about 2.5 s. The server stops when the build finishes (or its process ends).
- Stop: nbclient shuts each page's kernel down gracefully, waiting for it to run its exit
  hooks, which costs about 0.8 s per executed page; snippets have no clean-up to do, so the
  build asks for an immediate shutdown. myst-nb hands no such option down to jupyter-cache and
  nbclient, so this sets the default of nbclient's own (configurable) `shutdown_kernel` trait.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from whatcopy import kernels


def start_server(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Before Sphinx reads (and, with -j, forks its readers). The server imports nothing until
    a kernel is asked for, so a build that executes nothing pays only for starting it."""
    if docnames and getattr(app, "_kernel_server", None) is None:
        app._kernel_server = kernels.serving()
        app._kernel_server.__enter__()


def stop_server(app: Sphinx, exception: Exception | None) -> None:
    server = getattr(app, "_kernel_server", None)
    if server is not None:
        app._kernel_server = None
        server.__exit__(None, None, None)


def setup(app: Sphinx):
    from nbclient import NotebookClient

    NotebookClient.shutdown_kernel.default_value = "immediate"
    app.connect("env-before-read-docs", start_server)
    app.connect("build-finished", stop_server)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
