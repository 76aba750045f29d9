"""Lean theme: sphinx-book-theme within the page budget, locked down, and previewed well.

One job: what the site adds to or takes from sphinx-book-theme (with pydata-sphinx-theme) so
that a first view stays small, loads nothing from another host and shares well.

* Font Awesome: docs/_templates/layout.html leaves out ``fontawesome.js`` (0.5 MB gzip, only
  needed for custom icons); the webfonts are subset at the end of every build, with fontTools,
  to the glyphs the built pages, the theme's scripts and its stylesheet actually use.
* Stylesheets: Sphinx's ``basic.css`` and pydata's are linked directly by the layout (the
  theme's ``theme.css`` is only an ``@import`` of ``basic.css``, one request more).
* Content-Security-Policy: a ``<meta http-equiv>`` first in every page's ``<head>``
  (``default-src 'self'``); after the build, each page's inline scripts are hashed into its
  ``script-src``, so no other inline script (and no ``unsafe-inline``) runs.
* The favicon is inlined as a ``data:`` URI: one request fewer per first view.
* OpenGraph meta per page (title, description from the page's first words, site name,
  address) by sphinxext-opengraph, set up here; this module gives it each language's
  description length, ``og:locale`` and ``twitter:card``, and the site's address when it is
  known (the ``site_url`` config value, through ``html_baseurl``); no image (its social cards are off). A Chinese
  page's description is given to it as written (``chinese_description``).
"""

from __future__ import annotations

import base64
import hashlib
import html
import logging
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from whatcopy.sphinxext.messages import N_, translate

CSP_PLACEHOLDER = "__content_security_policy__"
CSP_META = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)')
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", re.DOTALL)
POLICY = [
    "default-src 'self'",
    # The search page compiles Pagefind's WebAssembly (site_search.py): 'wasm-unsafe-eval'
    # there and nowhere else; it allows WebAssembly, not eval() of JavaScript.
    "script-src 'self'{wasm}{hashes}",
    # The theme and Sphinx set style attributes (and pydata a <noscript> <style>); styles
    # cannot run code, scripts are what the policy guards.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
]
# A page that loads the site's search (site_search.py) compiles WebAssembly.
SEARCH_SCRIPT = "_static/site-search.js"
OG_LOCALES = {"en": "en_US", "zh_CN": "zh_CN"}
FONT_FOLDER = "vendor/fontawesome/webfonts"
ICON_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+,?)+)\{--fa:"\\([0-9a-f]+)"\}')
ICON_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
CSS_CODEPOINT = re.compile(r'"\\([0-9a-f]{4,5})"')
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")  # the stylesheet also writes some glyphs literally
DESCRIPTION_LENGTH = {"en": 200, "zh_CN": 110}


def policy(html: str) -> str:
    """The page's CSP: its own inline scripts, hashed, are the only inline code allowed."""
    hashes = sorted(
        {
            "'sha256-"
            + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
            + "'"
            for body in INLINE_SCRIPT.findall(html)
        }
    )
    wasm = " 'wasm-unsafe-eval'" if SEARCH_SCRIPT in html else ""
    return "; ".join(POLICY).format(wasm=wasm, hashes="".join(" " + h for h in hashes))


def apply_policy(path: Path) -> None:
    html = path.read_text(encoding="utf-8")
    if not CSP_META.search(html):
        return
    updated = CSP_META.sub(lambda m: m.group(1) + policy(html) + m.group(3), html, count=1)
    if updated != html:
        path.write_text(updated, encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Font Awesome


def theme_static() -> Path:
    import pydata_sphinx_theme

    return Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"


def used_codepoints(outdir: Path) -> set[int]:
    """Codepoints of every icon a page, a script or the stylesheet can show."""
    css = (theme_static() / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    icons: dict[str, int] = {}
    for selectors, code in ICON_RULE.findall(css):
        for name in selectors.split(","):
            if name:
                icons[name.lstrip(".")] = int(code, 16)
    names: set[str] = set()
    for path in sorted(outdir.rglob("*.html")) + sorted((outdir / "_static").rglob("*.js")):
        if path.name != "fontawesome.js":
            names.update(ICON_CLASS.findall(path.read_text(encoding="utf-8", errors="replace")))
    codepoints = {icons[name] for name in names if name in icons}
    # Glyphs the stylesheet draws itself (admonition, external-link and dropdown icons).
    codepoints |= css_glyphs(css)
    return codepoints | {0x20}


def css_glyphs(css: str) -> set[int]:
    """Codepoints the stylesheet itself shows (not through an .fa-* class)."""
    rest = ICON_RULE.sub("", css)
    return {int(code, 16) for code in CSS_CODEPOINT.findall(rest)} | {
        ord(char) for char in PRIVATE_USE.findall(rest)
    }


def subset_fonts(outdir: Path, cache: Path) -> None:
    """Subset each webfont to the glyphs in use. Sphinx copies the theme's full fonts on every
    build, so the subsets are kept in ``cache``, keyed by the font and the glyphs: an unchanged
    site costs a copy, not a subsetting (about a second per language)."""
    codepoints = sorted(used_codepoints(outdir))
    for original in sorted((theme_static() / FONT_FOLDER).glob("*.woff2")):
        target = outdir / "_static" / FONT_FOLDER / original.name
        if not target.parent.exists():
            continue
        key = hashlib.sha256(original.read_bytes() + repr(codepoints).encode()).hexdigest()[:16]
        cached = cache / f"{original.stem}-{key}.woff2"
        if not cached.exists():
            cache.mkdir(parents=True, exist_ok=True)
            for stale in cache.glob(f"{original.stem}-*.woff2"):
                stale.unlink()
            _subset(original, codepoints, cached)
        shutil.copyfile(cached, target)


def _subset(original: Path, codepoints: list[int], target: Path) -> None:
    from fontTools import subset

    logging.getLogger("fontTools").setLevel(logging.WARNING)  # not a line per table
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(original), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    partial = target.with_suffix(".partial")
    subset.save_font(font, str(partial), options)
    partial.replace(target)


def drop_unused_assets(outdir: Path) -> None:
    """What no page loads: the icon script the layout leaves out, the themes' template macros
    and translation catalogs that their static folders carry, and sphinx-book-theme's copies of
    myst-nb's source notebooks (empty when cached; the downloads are course_kit's)."""
    static = outdir / "_static"
    for name in (
        "scripts/fontawesome.js",
        "scripts/fontawesome.js.LICENSE.txt",
        "scripts/fontawesome.js.map",
        "webpack-macros.html",
        "sbt-webpack-macros.html",
    ):
        (static / name).unlink(missing_ok=True)
    shutil.rmtree(static / "locales", ignore_errors=True)
    shutil.rmtree(outdir / "_sources", ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Per page


def favicon_data_uri(path: Path) -> str:
    from urllib.parse import quote

    # A space is not allowed in a URL (the Nu checker rejects it): it is written %20.
    return "data:image/svg+xml," + quote(path.read_text(encoding="utf-8").strip(), safe="=:/")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["csp_placeholder"] = CSP_PLACEHOLDER
    context["favicon_data_uri"] = favicon_data_uri(
        Path(app.confdir).parent / "_static" / "favicon.svg"
    )
    context["pydata_css_digest"] = _digest(theme_static() / "styles" / "pydata-sphinx-theme.css")


def chinese_description(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree
) -> None:
    """A Chinese page's description: its first paragraph (outside admonitions, tables and
    cells) as written, cut to the preview's length, given to sphinxext-opengraph as the page's
    own ``og:description`` and ``description``. Its parser joins a paragraph's inline pieces
    with spaces, which splits Chinese text ("返回一个 新的张量对象 ，")."""
    language = app.config.language
    if doctree is None or not language.startswith("zh"):
        return
    for paragraph in doctree.findall(nodes.paragraph):  # upstream: ogp-chinese-description
        if any(
            isinstance(parent, (nodes.admonition, nodes.table, nodes.field_list))
            or "cell" in parent.get("classes", [])
            for parent in _ancestors(paragraph)
        ):
            continue
        text = " ".join(paragraph.astext().split())
        if len(text) < 20:
            continue
        limit = DESCRIPTION_LENGTH.get(language, 200)
        if len(text) > limit:
            text = text[:limit].rstrip(",;:，；：") + "…"
        context["meta"] = {**(context.get("meta") or {}), "og:description": text}
        describe(context, text)
        return


def describe(context: dict, text: str) -> None:
    """The page's `<meta name="description">`, added to the tags Sphinx writes in its head."""
    context["metatags"] = (
        context.get("metatags", "") + f'<meta name="description" content="{html.escape(text)}" />\n'
    )


# The pages Sphinx makes without a source, and so without a first paragraph to describe them
# (tests/test_site_html.py checks that the index links only into the glossary, as its line says).
SPECIAL_DESCRIPTIONS = {
    "genindex": N_(
        "The index of the glossary's terms, in English and in Chinese, each linked to its "
        "definition in the glossary."
    ),
    "search": N_(
        "Search this language's pages of the site: type words, a question, a pasted error "
        "message or a line of code."
    ),
}


def special_description(
    app: Sphinx, pagename: str, templatename: str, context: dict, doctree
) -> None:
    """The search page's and the index's description, in the page's language (search engines
    show it, and Lighthouse's SEO audit asks every page for one)."""
    if pagename in SPECIAL_DESCRIPTIONS and doctree is None:
        describe(context, translate(app.config.language, SPECIAL_DESCRIPTIONS[pagename]))


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def social_preview(app: Sphinx, config) -> None:
    """sphinxext-opengraph's settings for this language: a description as long as a preview
    shows (fewer characters in Chinese), the locale and a summary card, which it does not write
    itself (Twitter reads the og: title and description), and the address of the pages."""
    language = config.language
    config.ogp_description_length = DESCRIPTION_LENGTH.get(language, 200)
    config.ogp_custom_meta_tags = [
        f'<meta property="og:locale" content="{OG_LOCALES.get(language, language)}" />',
        '<meta name="twitter:card" content="summary" />',
    ]
    config.ogp_social_cards = {"enable": False}  # no image (and no matplotlib)
    if config.html_baseurl and not config.ogp_site_url:  # set from site_url (site_languages.py)
        config.ogp_site_url = config.html_baseurl


def assets(app: Sphinx) -> None:
    # Before Sphinx's translations.js (500): site.js replaces the one function of doctools.js
    # that the policy refuses (`new Function`).
    app.add_js_file("site.js", priority=499)


def finish(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    drop_unused_assets(outdir)
    subset_fonts(outdir, Path(app.doctreedir) / "lean_theme_fonts")
    for page in sorted(outdir.rglob("*.html")):
        apply_policy(page)


# Scripts a page's inline scripts use at once (DOCUMENTATION_OPTIONS.pagename = ...): these
# stay where they are; the others wait for the page (they act on DOMContentLoaded).
BLOCKING_SCRIPTS = {"_static/documentation_options.js"}


def defer_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Sphinx's, the copy button's and the theme's scripts load with ``defer``: the page is
    drawn once its stylesheets are in, instead of after each script in turn (Lighthouse,
    mobile: zh-cn/detach.html drawn at 2.5 s instead of 1.2 s). The order of the deferred
    scripts is kept, and none of them acts before DOMContentLoaded. Not on search.html, whose
    search scripts are another matter."""
    from sphinx.builders.html._assets import _JavaScript  # upstream: sphinx-private-javascript

    if pagename == "search":
        return
    scripts = []
    for script in context.get("script_files", []):
        name = getattr(script, "filename", str(script))
        attributes = dict(getattr(script, "attributes", {}))
        if name and "body" not in attributes and name not in BLOCKING_SCRIPTS:
            attributes.setdefault("defer", "defer")
            script = _JavaScript(name, priority=script.priority, **attributes)
        scripts.append(script)
    context["script_files"] = scripts


def setup(app: Sphinx):
    app.setup_extension("sphinxext.opengraph")
    # after site_languages.configure_language (500), which sets html_baseurl from site_url
    app.connect("config-inited", social_preview, priority=600)
    app.connect("html-page-context", chinese_description, priority=400)  # before opengraph's
    app.connect("builder-inited", assets)
    app.connect("html-page-context", page_context)
    app.connect("html-page-context", special_description)
    app.connect("html-page-context", defer_scripts, priority=900)
    app.connect("build-finished", finish, priority=900)  # after the other extensions' files
    return {"parallel_read_safe": True, "parallel_write_safe": True}
