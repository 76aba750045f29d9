"""The fixture several test modules share (warm kernels), and what the suite prints at its
end besides pass and fail: the figures tests measured.

Tests add lines to ``config.stash[NOTES]``. Under pytest-xdist each worker process keeps its
own; a worker hands its lines to the controlling process when it finishes (``workeroutput``),
and the controller prints them with its summary.
"""

import pytest
from project import NOTES

from whatcopy import kernels


@pytest.fixture(scope="module")
def warm_kernels():
    """Kernels named `python3` are forked from a server that imported torch once, as the build's
    are (whatcopy/kernels.py): a new ipykernel each, in about 0.5 s instead of 2.5 s."""
    with kernels.serving() as folder:
        yield folder


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # in a pytest-xdist worker
        session.config.workeroutput["notes"] = list(session.config.stash.get(NOTES, []))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):  # in the controller, as each worker finishes
    notes = getattr(node, "workeroutput", {}).get("notes", [])
    node.config.stash.setdefault(NOTES, []).extend(notes)


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(NOTES, []):
        terminalreporter.write_line(line)
