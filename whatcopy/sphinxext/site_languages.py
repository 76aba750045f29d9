"""Site languages: the two builds as one bilingual site.

One job: whatever makes the English and the Chinese builds work as one site.

* Each page links to its twin in the other language (switcher in the article header,
  ``hreflang`` links), and its launch buttons open that language's notebooks.
* The theme's hard-coded English ``aria-label``s and ``title``s become translatable, so the
  Chinese catalog in docs/locale/ covers every label the reader (or a screen reader) meets.

(Search, in both languages, is Pagefind's: site_search.py.)
"""

from __future__ import annotations

import csv

import jinja2.ext
from sphinx.application import Sphinx

from whatcopy import project
from whatcopy.languages import LANGUAGES  # the site's one table of languages

# Labels sphinx-book-theme and pydata-sphinx-theme write in plain English instead of through
# gettext (as aria-label="..." or title="...").
HARDCODED_LABELS = [
    "Toggle primary sidebar",
    "Toggle secondary sidebar",
    "Main",
    "Page",
    "Announcement",
    "Version switcher list",
]
# ... and the one myst-nb writes for a folded code cell.
HIDDEN_CELL_LABEL = "Toggle hidden content"


def read_terms() -> list[dict[str, str]]:
    with (project.current().docs / "terms.tsv").open(encoding="utf-8") as handle:
        rows = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(rows, delimiter="\t"))


def language_links(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Context for the switcher: the same page in every language, as relative URLs; and for
    the hreflang links, absolute ones when the site's address is known (html_baseurl)."""
    up = "../" * (pagename.count("/") + 1)
    base = app.config.html_baseurl
    site = base.rstrip("/").rsplit("/", 1)[0] + "/" if base else ""
    links = []
    for lang in LANGUAGES.values():
        links.append(
            {
                "url": f"{up}{lang.folder}/{pagename}.html",
                "absolute": f"{site}{lang.folder}/{pagename}.html" if site else None,
                "hreflang": lang.hreflang,
                "name": lang.name,
                "current": lang.sphinx == app.config.language,
            }
        )
    context["site_languages"] = links


class TranslateHardcodedLabels(jinja2.ext.Extension):
    """Wraps the themes' literal labels in gettext calls before their templates compile."""

    def preprocess(self, source, name, filename=None):
        for label in HARDCODED_LABELS:
            for attribute in ("aria-label", "title"):
                source = source.replace(
                    f'{attribute}="{label}"', f'{attribute}="{{{{ _("{label}") }}}}"'
                )
        return source


def add_template_extension(app: Sphinx) -> None:
    templates = getattr(app.builder, "templates", None)
    if templates is not None:
        templates.environment.add_extension(TranslateHardcodedLabels)


def configure_language(app: Sphinx, config) -> None:
    # The launch buttons open <language folder>/<page>.ipynb on the notebooks branch.
    folder = next(lang.folder for lang in LANGUAGES.values() if lang.sphinx == config.language)
    config.html_theme_options = {**config.html_theme_options, "path_to_docs": folder}
    # Where the site is published (site_url, ending in /), when known: Sphinx then writes each
    # page's canonical link, and the pages' hreflang links are absolute (language_links).
    site_url = config.site_url
    if site_url and not config.html_baseurl:
        config.html_baseurl = f"{site_url.rstrip('/')}/{folder}/"


def translate_hidden_cell_label(app: Sphinx) -> None:
    """Re-register myst-nb's folded-cell node with a visitor that translates its aria-label."""
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput
    from sphinx.locale import get_translation

    translate = get_translation("sphinx")

    def visit(self, node):
        start = len(self.body)
        visit_HideCellInput(self, node)
        label = f'aria-label="{HIDDEN_CELL_LABEL}"'
        for index in range(start, len(self.body)):
            self.body[index] = self.body[index].replace(
                label, f'aria-label="{translate(HIDDEN_CELL_LABEL)}"'
            )

    # upstream: myst-nb-hidden-cell-label
    app.add_node(HideCodeCellNode, override=True, html=(visit, depart_HideCellInput))


def search_placeholder(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree
) -> None:
    """sphinx-book-theme takes the search field's text from its own catalog, which has no
    Chinese for it; Sphinx's catalog has."""
    from sphinx.locale import get_translation

    context["theme_search_bar_text"] = get_translation("sphinx")("Search") + "…"


def depend_on_catalog(app: Sphinx, docname: str, source: list[str]) -> None:
    """A changed translation of a theme string must rebuild the pages that show it."""
    for catalog in sorted(project.current().locale.glob(f"{app.config.language}/LC_MESSAGES/*.po")):
        app.env.note_dependency(str(catalog))


def setup(app: Sphinx):
    app.connect("config-inited", configure_language)
    app.connect("builder-inited", add_template_extension)
    translate_hidden_cell_label(app)
    app.connect("html-page-context", language_links)
    app.connect("html-page-context", search_placeholder, priority=600)  # after the theme's
    app.connect("source-read", depend_on_catalog)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
