"""Lean code: highlighted code drawn with fewer elements, looking exactly the same.

Pygments wraps every token in a ``<span>`` of its type's class, and most of a snippet's tokens
are names, punctuation and spaces (``n``, ``p``, ``w``). In the two styles the theme draws code
with (its ``pygments_light_style`` and ``pygments_dark_style``), those types are drawn exactly
as plain text is, the code block's own colour, so their spans change nothing on screen but
weigh on every page: elements the browser styles and lays out before it shows the page (the
figures: docs/dev/decisions/0007-lean-code-spans.md).

Here the HTML builder's formatter draws a token as plain text (no span) when its type's style,
as Pygments resolves it (inherited from its parent types), is the plain text's own in both
styles: what it decides is what the stylesheet says, type by type, so a theme or style that
gives names a colour keeps their spans. Nothing else of the site's CSS names these classes
(tests/test_site_html.py checks the built stylesheets), and the browser test checks that such a
block's text has the colour its spans had, in light and dark. The text of the code is
unchanged, so the copy button, the search and the book read the same.
"""

from __future__ import annotations

import functools
import logging

from pygments.formatters import HtmlFormatter
from pygments.style import Style
from pygments.styles import get_style_by_name
from pygments.token import Text, Token
from sphinx.application import Sphinx
from sphinx.highlighting import PygmentsBridge

TokenType = type(Token)  # the class of Pygments' token types


def drawn_as_text(token: TokenType, styles: tuple[type[Style], ...]) -> bool:
    """Whether a token of this type looks like plain text in every one of `styles` (colour,
    background, weight, slant, underline, border, font: all Pygments resolves for a type)."""
    return bool(styles) and all(
        style.style_for_token(token) == style.style_for_token(Text) for style in styles
    )


class PlainTokensFormatter(HtmlFormatter):
    """Pygments' HTML formatter, with the types `drawn_as_text` in the site's styles written
    as plain text (the theme's styles are set at builder-inited; none set: every span kept).

    Text outside any span takes the colour of the block's ``<pre>``, which pydata-sphinx-theme
    sets to its own text colour, not the code style's (light: rgb(34, 40, 50) where the style's
    text is rgb(8, 8, 8)). So a block is written this way only when none of its text was outside
    a span already (no visible plain-text token: true of every snippet), and it is marked
    ``lean-code``: docs/_static/site.css gives that block's ``<pre>`` the code style's colour,
    which its spans had. Any other block is written as Pygments writes it."""

    styles: tuple[type[Style], ...] = ()

    def format_unencoded(self, tokensource, outfile):
        tokens = list(tokensource)
        if not self.styles or any(
            token in (Token, Text) and value.strip() for token, value in tokens
        ):
            return super().format_unencoded(tokens, outfile)
        plain = functools.partial(_plain, self.styles)
        tokens = [(Text if plain(token) else token, value) for token, value in tokens]
        own = self.cssclass  # (the wrapping div's class, read while writing)
        self.cssclass = f"{own} {LEAN}"
        try:
            return super().format_unencoded(tokens, outfile)
        finally:
            self.cssclass = own


LEAN = "lean-code"  # the class of a block written with plain tokens (docs/_static/site.css)


@functools.cache
def _plain(styles: tuple[type[Style], ...], token: TokenType) -> bool:
    return drawn_as_text(token, styles)


def theme_styles(app: Sphinx) -> None:
    """The light and dark styles pydata-sphinx-theme writes pygments.css with (its options
    ``pygments_light_style`` and ``pygments_dark_style``, which site_conf.py sets)."""
    options = app.config.html_theme_options or {}
    names = [options.get("pygments_light_style"), options.get("pygments_dark_style")]
    PlainTokensFormatter.styles = styles_named(names) if all(names) else ()


def styles_named(names: list[str]) -> tuple[type[Style], ...]:
    """The Pygments styles of these names, leaving Python's logging as it was: the package of
    the theme's a11y styles calls ``logging.basicConfig(level=INFO)`` when first imported, which
    made every INFO line of the build's libraries print (nbclient's, for each page executed)."""
    root = logging.getLogger()  # upstream: a11y-pygments-logging
    handlers, level = list(root.handlers), root.level
    try:
        return tuple(get_style_by_name(name) for name in names)
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        root.setLevel(level)


def setup(app: Sphinx):
    PygmentsBridge.html_formatter = PlainTokensFormatter  # upstream: sphinx-pygments-formatter
    app.connect("builder-inited", theme_styles)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
