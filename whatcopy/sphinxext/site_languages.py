"""Site languages: the two builds as one bilingual site.

One job: whatever makes the English and the Chinese builds work as one site.

* Each page links to its twin in the other language (switcher in the article header,
  ``hreflang`` links), and its launch buttons open that language's notebooks.
* The theme's hard-coded English ``aria-label``s and ``title``s become translatable, so the
  Chinese catalog in docs/locale/ covers every label the reader (or a screen reader) meets.
* Chinese search: pages are segmented by jieba with the site's own terms (docs/terms.tsv) as
  whole words, and the browser splits a query typed without spaces (计算图) into the words the
  index holds, which Sphinx's own search does not do.
"""

from __future__ import annotations

import csv
import logging
import os

import jinja2.ext
import snowballstemmer
from sphinx.application import Sphinx
from sphinx.search.zh import SearchChinese

from whatcopy.languages import LANGUAGES  # the site's one table of languages
from whatcopy.root import find_root

DOCS = find_root() / "docs"
TERMS = DOCS / "terms.tsv"
# A fixed path, wherever the build goes: it is part of the configuration Sphinx hashes.
JIEBA_DICT = DOCS / "_build" / "jieba_terms.txt"


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
    with TERMS.open(encoding="utf-8") as handle:
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


SPLITTER_JS = r"""
/* Chinese has no spaces between words. Split each run of Han characters in the query into the
   longest words the search index holds (jieba segmented the pages when the index was built),
   so that a compound typed without spaces, such as 计算图, finds the pages that use it. Like the
   index (SearchChinese.word_filter), drop one-character Latin words: the browser lists a page
   only when it holds every word, so `x` in "x.data 区别" would otherwise hide every page. */
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) || { terms: {}, titleterms: {} };
  const known = (word) => Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word);
  const words = [];
  const tokens = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter((t) => t);
  for (const token of tokens) {
    for (const part of token.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
      if (!/\p{Script=Han}/u.test(part)) {
        if (part.length > 1) words.push(part);
        continue;
      }
      if (known(part)) {
        words.push(part);
        continue;
      }
      let start = 0;
      while (start < part.length) {
        let end = part.length;
        while (end > start + 1 && !known(part.slice(start, end))) end--;
        const word = part.slice(start, end);
        if (known(word)) words.push(word);  // an unknown single character cannot match anyway
        start = end;
      }
    }
  }
  return words;
};
"""


class SearchChineseWithTerms(SearchChinese):
    """Sphinx's Chinese search, with the site's terms as words and a segmenting query splitter.

    jieba loads its dictionary (0.7 s) when the first page is segmented, not when the search
    index is set up: a rebuild that writes no page never needs it."""

    js_splitter_code = SPLITTER_JS

    def init(self, options: dict[str, str]) -> None:
        self._pending_options: dict[str, str] | None = options
        self.stemmer = snowballstemmer.stemmer("english")

    def split(self, input: str) -> list[str]:
        if self._pending_options is not None:
            options, self._pending_options = self._pending_options, None
            SearchChinese.init(self, options)
        return super().split(input)


def configure_language(app: Sphinx, config) -> None:
    # The launch buttons open <language folder>/<page>.ipynb on the notebooks branch.
    folder = next(lang.folder for lang in LANGUAGES.values() if lang.sphinx == config.language)
    config.html_theme_options = {**config.html_theme_options, "path_to_docs": folder}
    # Where the site is published (SITE_URL, ending in /), when known: Sphinx then writes each
    # page's canonical link, and the pages' hreflang links are absolute (language_links).
    site_url = os.environ.get("SITE_URL")
    if site_url and not config.html_baseurl:
        config.html_baseurl = f"{site_url.rstrip('/')}/{folder}/"
    if not config.language.startswith("zh"):
        return
    import jieba

    jieba.setLogLevel(logging.WARNING)  # not its progress lines on every build
    JIEBA_DICT.parent.mkdir(parents=True, exist_ok=True)
    words = sorted({row["chinese"] for row in read_terms()})
    text = "".join(f"{word} 100000 n\n" for word in words)
    if not JIEBA_DICT.exists() or JIEBA_DICT.read_text(encoding="utf-8") != text:
        JIEBA_DICT.write_text(text, encoding="utf-8")
    # Only our terms: the default ("dict" unset) re-adds jieba's whole dictionary each build.
    config.html_search_options = {"dict": str(JIEBA_DICT)}


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
    for catalog in sorted(DOCS.glob(f"locale/{app.config.language}/LC_MESSAGES/*.po")):
        app.env.note_dependency(str(catalog))


def setup(app: Sphinx):
    app.add_search_language(SearchChineseWithTerms)
    app.connect("config-inited", configure_language)
    app.connect("builder-inited", add_template_extension)
    translate_hidden_cell_label(app)
    app.connect("html-page-context", language_links)
    app.connect("html-page-context", search_placeholder, priority=600)  # after the theme's
    app.connect("source-read", depend_on_catalog)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
