"""How the tests, the benchmark and the book start Debian's Chromium through Playwright
(headless, quiet), and serve it the built site from a local server."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder's files, without a log line per request."""

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serving(folder: Path, handler: type[QuietHandler] = QuietHandler) -> Iterator[str]:
    """A local server of `folder` (which may not exist yet) on a free port, in a thread of its
    own; yields its address, ``http://127.0.0.1:<port>``, and stops it on leaving."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
