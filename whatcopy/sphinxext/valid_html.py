"""Valid HTML where an extension writes otherwise (tests/test_site_html.py runs the Nu HTML
checker over every page).

myst-nb 1.4 folds a hidden code cell into ``<details>`` whose ``<summary>`` holds two ``<p>``
elements ("Show code cell source" / "Hide code cell source"), but a summary may hold only
phrasing content. The same fold is written here with ``<span>``; docs/_static/site.css gives the
spans the rules myst-nb's stylesheet gives the paragraphs.
"""

from __future__ import annotations

from html import escape

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx.application import Sphinx


def visit_hide_cell_input(self, node: HideCodeCellNode) -> None:
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n')
    self.body.append('<summary aria-label="Toggle hidden content">\n')
    self.body.append(
        f'<span class="collapsed admonition-title">{escape(node["prompt_show"])}</span>\n'
    )
    self.body.append(
        f'<span class="expanded admonition-title">{escape(node["prompt_hide"])}</span>\n'
    )
    self.body.append("</summary>\n")


def setup(app: Sphinx):
    app.setup_extension("myst_nb")  # its node first, then this visitor in its place
    app.add_node(
        HideCodeCellNode, override=True, html=(visit_hide_cell_input, depart_HideCellInput)
    )
    return {"parallel_read_safe": True, "parallel_write_safe": True}
