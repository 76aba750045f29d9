"""Snippet runs: what a page shows of each snippet, run once on the fork server and kept.

The site's outputs come from here. Every code cell of a page ``:load:``-s one snippet, and a
snippet shows the same on every page and in every language that loads it, so the unit of work
is the snippet, not the page: ``run_missing()`` runs each snippet that has no current run on a
fork server (whatcopy/core/runner.py, ``page_run``: its outputs as a notebook cell's, and its
problems) and writes the result to ``<build>/runs/<device>/<name>.json``. The Sphinx builds
then only read these files (whatcopy/execution/notebooks.py puts the outputs into the cells).

A run is current while its ``key`` is: a digest of the snippet's source (for a generator, of
every module in generators/, which it may import), the Python, torch and NumPy versions, and
the device. A new torch thus runs everything again. A file is written whole under its name at
once (a killed build leaves a run or none, never half of one), so a build that was stopped
rebuilds as if it had not been.

Standard library and torch only, like the rest of whatcopy.core.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import json
import os
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from whatcopy.core import snippets as model
from whatcopy.core.runner import page_run, run_many
from whatcopy.core.snippets import Snippet

FOLDER = "runs"  # under the build folder
FORMAT = "2"  # of a run's file: a new one makes every run old


@functools.cache  # (asked for every run's key: each look-up scans sys.path's distributions)
def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "none"


def key(snippet: Snippet, device: str = "cpu") -> str:
    """What a run depends on, as one digest (see the module's docstring)."""
    digest = hashlib.sha256()
    sources = sorted(model.GENERATORS.glob("*.py")) if snippet.is_generator else [snippet.path]
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    setting = f"{FORMAT} {device} python {sys.version.split()[0]} torch {_version('torch')}"
    digest.update(f"{setting} numpy {_version('numpy')}".encode())
    return digest.hexdigest()


def path(build: Path, snippet: Snippet, device: str = "cpu") -> Path:
    return Path(build) / FOLDER / device / f"{snippet.name}.json"


def load(build: Path, snippet: Snippet, device: str = "cpu") -> dict | None:
    """The snippet's current run (``{"key", "outputs", "problems", "results"}``: runner's
    page_run), or None."""
    try:
        run = json.loads(path(build, snippet, device).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    return run if run.get("key") == key(snippet, device) else None


def _store(build: Path, snippet: Snippet, device: str, run: dict) -> None:
    target = path(build, snippet, device)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    part.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    part.replace(target)


def run_missing(
    snippets: list[Snippet],
    build: Path,
    device: str = "cpu",
    again_if_failed: bool = True,
    python_for: Callable[[str], Path] | None = None,
) -> list[Snippet]:
    """Run each of `snippets` (each once) that has no current run, or, with `again_if_failed`,
    whose current run had problems (a hang on a busy machine is not kept); return those run.
    `python_for("snippets")` and `python_for("generators")` give the interpreters to run them
    in, asked only when there is something of that kind to run (whatcopy/execution/clean_env.py;
    None: this one)."""
    todo = {}
    for snippet in snippets:
        run = load(build, snippet, device)
        if run is None or (again_if_failed and run["problems"]):
            todo.setdefault(snippet.name, snippet)
    if not todo:
        return []

    def action(snippet: Snippet, device: str, server) -> None:
        run = {"key": key(snippet, device), **page_run(snippet, device, server)}
        _store(build, snippet, device, run)

    def run_all(group: list[Snippet], jobs: int) -> None:
        kind = "generators" if group[0].is_generator else "snippets"
        python = None if python_for is None else str(python_for(kind))
        # torch's compiler stack (1.3 s) is worth preloading for many snippets, not for one
        run_many(action, group, device, jobs, python, python is not None, compiler=len(group) > 1)

    # The generators, few and long (generators/operators.py is the longest run of all), on one
    # server of their own, beside the teachers' snippets on the other cores: each fork server
    # costs an `import torch`, and a server per core for three generators would not pay for it.
    generators = [s for s in todo.values() if s.is_generator]
    teachers = [s for s in todo.values() if not s.is_generator]
    cores = os.cpu_count() or 1
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        done = [pool.submit(run_all, generators, 1)] if generators else []
        if teachers:
            done.append(pool.submit(run_all, teachers, max(1, cores - len(done))))
        for future in done:
            future.result()
    return list(todo.values())
