"""The two pages at the site's root, generated from the languages table (whatcopy/languages.py):
index.html, which sends the reader to the language their browser prefers and lists every
language, and 404.html, which says so in every language and links each one's start page.

Their words are English msgids translated through the extensions' catalog
(docs/locale/<language>/LC_MESSAGES/whatcopy.po, see whatcopy/sphinxext/messages.py), so a
language added to the table and to the catalogs appears on both pages. The redirect script's
hash goes into the page's Content-Security-Policy, computed here.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from whatcopy.languages import LANGUAGES, Language
from whatcopy.sphinxext.messages import N_, catalog

TITLE = N_("What does it copy?")
NOT_FOUND = N_("Page not found")
NOT_FOUND_TEXT = N_("This page does not exist, or has moved.")
START_PAGE = N_("{title} ({language})")
# Only in the site's first language, which the root page is written in.
TAGLINE = (
    "PyTorch's <code>detach()</code>, <code>clone()</code> and <code>copy.deepcopy</code>, "
    "executed."
)
STYLE = """\
<style>
  body {{ font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.6; }}
  a {{ display: block; font-size: {size}; margin: 0.5rem 0; }}
</style>"""
CSP = (
    "default-src 'self'; script-src 'self'{scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"
)


def _(language: Language, message: str) -> str:
    return catalog(language.sphinx).gettext(message)


def _first() -> Language:
    return next(iter(LANGUAGES.values()))


def _start(language: Language) -> str:
    return f"{language.folder}/index.html"


def redirect_script() -> str:
    """The first of the reader's languages that the site has decides; the first language of
    the table otherwise."""
    first = _first()
    tests = [
        f'      if (language.indexOf("{lang.hreflang.split("-")[0].lower()}") === 0) '
        f'{{ target = "{lang.folder}"; break; }}'
        for lang in LANGUAGES.values()
        if lang != first
    ] + [
        (
            f'      if (language.indexOf("{first.hreflang.split("-")[0].lower()}") === 0) '
            "{ break; }"
        )
    ]
    return (
        "\n  // Send the reader to the language their browser prefers; the links below work "
        "without it.\n"
        "  // The first of the reader's languages that the site has decides; "
        f"{first.name} otherwise.\n"
        "  (function () {\n"
        f'    var languages = navigator.languages || [navigator.language || "{first.hreflang}"];\n'
        f'    var target = "{first.folder}";\n'
        "    for (var i = 0; i < languages.length; i++) {\n"
        '      var language = (languages[i] || "").toLowerCase();\n' + "\n".join(tests) + "\n"
        "    }\n"
        '    window.location.replace(target + "/index.html");\n'
        "  })();\n"
    )


def language_chooser() -> str:
    """index.html: every language's start page, and the script that picks one."""
    first = _first()
    script = redirect_script()
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    title = " · ".join(_(lang, TITLE) for lang in LANGUAGES.values())
    lines = [
        "<!DOCTYPE html>",
        f'<html lang="{first.hreflang}">',
        "<head>",
        '<meta charset="utf-8">',
        "<!-- The script's hash: tests/test_site_html.py fails when it is stale. -->",
        (
            f'<meta http-equiv="Content-Security-Policy" '
            f'content="{CSP.format(scripts=f" {chr(39)}sha256-{digest}{chr(39)}")}">'
        ),
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<link rel="icon" href="{first.folder}/_static/favicon.svg" type="image/svg+xml">',
        f"<title>{escape(title, quote=False)}</title>",
        *(
            f'<link rel="alternate" hreflang="{lang.hreflang}" href="{_start(lang)}">'
            for lang in LANGUAGES.values()
        ),
        f"<script>{script}</script>",
        STYLE.format(size="1.25rem"),
        "</head>",
        "<body>",
        f"<h1>{escape(title, quote=False)}</h1>",
        f"<p>{TAGLINE}</p>",
        *(
            f'<a href="{_start(lang)}" hreflang="{lang.hreflang}" lang="{lang.hreflang}">'
            f"{escape(lang.name, quote=False)}</a>"
            for lang in LANGUAGES.values()
        ),
        "</body>",
        "</html>",
    ]
    return "\n".join(lines) + "\n"


def not_found_page() -> str:
    """404.html: no script; the message in every language, each language's start page."""
    first = _first()
    others = [lang for lang in LANGUAGES.values() if lang != first]

    def lang_attribute(lang: Language) -> str:
        return "" if lang == first else f' lang="{lang.hreflang}"'

    heading = " · ".join(
        [escape(_(first, NOT_FOUND), quote=False)]
        + [
            f'<span lang="{lang.hreflang}">{escape(_(lang, NOT_FOUND), quote=False)}</span>'
            for lang in others
        ]
    )
    lines = [
        "<!DOCTYPE html>",
        f'<html lang="{first.hreflang}">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP.format(scripts="")}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>"
        + escape(" · ".join(_(lang, NOT_FOUND) for lang in LANGUAGES.values()), quote=False)
        + "</title>",
        f'<link rel="icon" href="{first.folder}/_static/favicon.svg" type="image/svg+xml">',
        STYLE.format(size="1.15rem"),
        "</head>",
        "<body>",
        f"<h1>{heading}</h1>",
        *(
            f"<p{lang_attribute(lang)}>{escape(_(lang, NOT_FOUND_TEXT), quote=False)}</p>"
            for lang in LANGUAGES.values()
        ),
        *(
            f'<a href="{_start(lang)}" hreflang="{lang.hreflang}"{lang_attribute(lang)}>'
            + escape(
                _(lang, START_PAGE).format(title=_(lang, TITLE), language=lang.name), quote=False
            )
            + "</a>"
            for lang in LANGUAGES.values()
        ),
        "</body>",
        "</html>",
    ]
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """The root pages by file name."""
    return {"index.html": language_chooser(), "404.html": not_found_page()}
