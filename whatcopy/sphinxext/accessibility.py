"""Accessibility: what axe-core finds wrong in the HTML that Sphinx and the theme write.

One job, two fixes (tests/test_browser.py runs axe-core on every page):

* Sphinx writes a toctree caption as ``<p role="heading">`` without the ``aria-level`` that the
  heading role requires; the translator below adds it.
* A code block, table or diagram wider than the screen scrolls sideways, and a region that
  scrolls must be reachable by keyboard: an inline script (no request) makes exactly those
  regions focusable, again when the window is resized.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

FOCUS_SCROLLABLE = """
document.addEventListener("DOMContentLoaded", () => {
  const mark = () => {
    for (const region of document.querySelectorAll("pre, .table-wrapper, .output-figure")) {
      if (region.scrollWidth > region.clientWidth + 1) region.tabIndex = 0;
      else region.removeAttribute("tabindex");
    }
  };
  mark();
  window.addEventListener("resize", mark);
});
"""


class AccessibleHTMLTranslator(HTML5Translator):
    def visit_title(self, node) -> None:
        start = len(self.body)
        super().visit_title(node)
        for index in range(start, len(self.body)):
            self.body[index] = self.body[index].replace(
                'role="heading">', 'role="heading" aria-level="2">'
            )


def setup(app: Sphinx):
    app.set_translator("html", AccessibleHTMLTranslator)
    app.add_js_file(None, body=FOCUS_SCROLLABLE)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
