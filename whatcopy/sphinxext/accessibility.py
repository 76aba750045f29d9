"""Accessibility: what axe-core would find wrong that pydata-sphinx-theme 0.20 leaves undone
(tests/test_browser.py runs axe-core on every page).

A region that scrolls sideways must be reachable by keyboard. The theme's script makes code
blocks, myst-nb outputs and tables focusable when they overflow (its
``addTabStopsToScrollableElements``), and its translator gives a toctree caption's heading role
its ``aria-level``; it does not know the site's drawn tables and diagrams
(``.output-figure``, whatcopy/sphinxext/output_figures.py). An inline script (no request)
makes exactly those that overflow focusable, again when the window is resized.
"""

from __future__ import annotations

from sphinx.application import Sphinx

FOCUS_SCROLLABLE = """
document.addEventListener("DOMContentLoaded", () => {
  const mark = () => {
    for (const region of document.querySelectorAll(".output-figure")) {
      if (region.scrollWidth > region.clientWidth + 1) region.tabIndex = 0;
      else region.removeAttribute("tabindex");
    }
  };
  mark();
  window.addEventListener("resize", mark);
});
"""


def setup(app: Sphinx):
    app.add_js_file(None, body=FOCUS_SCROLLABLE)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
