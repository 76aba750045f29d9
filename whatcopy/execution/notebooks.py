"""A page's notebook, as myst-nb reads it, with the outputs of its snippets' runs.

myst-nb does not execute the pages (``nb_execution_mode = "off"``); their snippets were run
before (whatcopy/core/runs.py). ``fill()`` gives each ``:load:`` cell of the notebook its
snippet's outputs and an execution count, as a Jupyter kernel executing the notebook would,
and the notebook the ``language_info`` a Python kernel reports (from which myst-nb chooses the
code's highlighting: ``ipython3``). myst-nb then renders them as it renders an executed
notebook's, and writes the notebook, outputs included, to its output folder.
"""

from __future__ import annotations

import platform
from pathlib import Path

import nbformat

from whatcopy.core import runs
from whatcopy.core.snippets import Snippet

# What ipykernel's kernel reports (ipykernel.ipkernel.IPythonKernel.language_info; a test
# compares the two, so that ipykernel need not be imported by the build).
LANGUAGE_INFO = {
    "name": "python",
    "version": platform.python_version(),
    "mimetype": "text/x-python",
    "codemirror_mode": {"name": "ipython", "version": 3},
    "pygments_lexer": "ipython3",
    "nbconvert_exporter": "python",
    "file_extension": ".py",
}


def cell_snippet(page: Path, load: str) -> Snippet | None:
    """The snippet a ``:load:`` names, or None when it names no file under snippets/ or
    generators/ (whatcopy/sphinxext/snippet_cells.py reports that)."""
    path = (Path(page).parent / load).resolve()
    try:
        snippet = Snippet(path)
        snippet.name  # noqa: B018  (raises for a file outside snippets/ and generators/)
    except ValueError:
        return None
    return snippet if path.is_file() else None


def fill(notebook: nbformat.NotebookNode, page: Path, build: Path) -> list[int]:
    """Fill `notebook` (myst-nb's reading of `page`) in place with the runs kept in `build`;
    return the indexes of the code cells that have no run to show."""
    notebook.metadata["language_info"] = nbformat.from_dict(dict(LANGUAGE_INFO))
    without = []
    count = 0
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        count += 1
        load = cell.metadata.get("load")
        snippet = None if load is None else cell_snippet(page, str(load))
        run = None if snippet is None else runs.load(build, snippet)
        if run is None:
            without.append(index)
            continue
        cell.execution_count = count
        cell.outputs = [nbformat.from_dict(output) for output in run["outputs"]]
    return without
