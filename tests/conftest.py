"""The fixture several test modules share (warm kernels), the order tests start in (the slow
ones first), and what the suite prints at its end besides pass and fail: the figures tests
measured.

Tests add lines to ``config.stash[NOTES]``. Under pytest-xdist each worker process keeps its
own; a worker hands its lines to the controlling process when it finishes (``workeroutput``),
and the controller prints them with its summary.
"""

import pytest
from project import NOTES

from whatcopy.execution import kernels


@pytest.fixture(scope="module")
def warm_kernels():
    """Kernels named `python3` are forked from a server that imported torch once, as the build's
    are (whatcopy/execution/kernels.py): a new ipykernel each, in about 0.5 s instead of 2.5 s."""
    with kernels.serving() as folder:
        yield folder


def pytest_collection_modifyitems(config, items):
    """The tests marked `slow` (throwaway builds of 30 to 45 s, kernels waiting out timeouts)
    first, the rest in their files' order. pytest-xdist's work stealing hands an idle worker
    tests from the end of the other's queue: a build taken last ran alone while the other core
    idled (measured: the reproducible-build test started at 288 s of a 336 s run)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # (a stable sort)


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
