"""Valid HTML where an extension writes otherwise (tests/test_site_html.py runs the Nu HTML
checker over every page).

myst-nb 1.4 folds a hidden code cell into ``<details>`` whose ``<summary>`` holds two ``<p>``
elements ("Show code cell source" / "Hide code cell source"), but a summary may hold only
phrasing content. The visitor registered for that node (myst-nb's, or site_languages.py's,
which translates its label) is wrapped so that those two are ``<span>`` elements;
docs/_static/site.css gives the spans the rules myst-nb's stylesheet gives the paragraphs.
"""

from __future__ import annotations

import re

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput
from sphinx.application import Sphinx

# the two lines of the summary, as myst-nb writes them
SUMMARY_LINE = re.compile(r'^<p class="((?:collapsed|expanded) admonition-title)">(.*)</p>(\s*)$')


def phrasing_summary(visit):
    """`visit`, writing the summary's two lines as spans."""

    def visit_with_spans(self, node) -> None:
        start = len(self.body)
        visit(self, node)
        for index in range(start, len(self.body)):
            self.body[index] = SUMMARY_LINE.sub(r'<span class="\1">\2</span>\3', self.body[index])

    return visit_with_spans


def setup(app: Sphinx):
    app.setup_extension("myst_nb")  # its node first, then this visitor in its place
    handlers = app.registry.translation_handlers.get("html", {})
    visit, depart = handlers.get(
        HideCodeCellNode.__name__, (visit_HideCellInput, depart_HideCellInput)
    )
    # upstream: myst-nb-hidden-cell-summary
    app.add_node(HideCodeCellNode, override=True, html=(phrasing_summary(visit), depart))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
