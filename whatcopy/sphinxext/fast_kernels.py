"""Fast kernels: an executed page costs a kernel start and `import torch`, and little more.

One job. nbclient shuts each page's kernel down gracefully, waiting for it to run its exit
hooks, which costs about 0.8 s per executed page; snippets have no clean-up to do, so the build
asks for an immediate shutdown. myst-nb hands no such option down to jupyter-cache and nbclient,
so this sets the default of nbclient's own (configurable) `shutdown_kernel` trait.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def setup(app: Sphinx):
    from nbclient import NotebookClient

    NotebookClient.shutdown_kernel.default_value = "immediate"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
