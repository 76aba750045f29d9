"""The extensions' own interface strings, translated the way the theme's are: through gettext.

The extensions keep their English text in code, marked with ``N_()`` where it is stored (a
dictionary of labels) and passed through ``_()`` or ``translate(language, ...)`` where it is
shown; a word that needs different Chinese in different places is marked with its context,
``NP_(context, message)`` (a ``msgctxt`` in the catalog), and shown through
``translate(language, message, context)``; the Chinese comes from the ``whatcopy`` message catalog,
docs/locale/<language>/LC_MESSAGES/whatcopy.po, which this module compiles (the .mo files are
build products, ignored by git) and registers with Sphinx (``app.add_message_catalog``). tests/test_site_html.py checks that every string the extensions
mark has a Simplified Chinese translation there.

A translated string that holds ``{placeholders}`` is ``.format()``-ed after translation.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

import sphinx.locale
from sphinx.application import Sphinx
from sphinx.locale import get_translation, get_translator
from sphinx.util.i18n import CatalogInfo

from whatcopy import project

DOMAIN = "whatcopy"

_ = get_translation(DOMAIN)
# The language whose catalog this process registered with Sphinx (one build, one language).
registered: str | None = None


def N_(message: str) -> str:
    """Marks a string for the catalog where it is stored; ``_()`` translates it where shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks a string with its context (the catalog's ``msgctxt``): ``translate(language,
    message, context)`` looks it up with that context."""
    return message


def compile_catalog(locale: Path, language: str) -> None:
    """Compile the language's whatcopy.po into whatcopy.mo when the .mo is missing or older."""
    folder = locale / language / "LC_MESSAGES"
    if not (folder / f"{DOMAIN}.po").exists():
        return
    catalog = CatalogInfo(str(folder), DOMAIN, "utf-8")
    if catalog.is_outdated():
        catalog.write_mo(language)


@functools.cache
def catalog(language: str, locale: Path | None = None) -> gettext.NullTranslations:
    """The language's whatcopy catalog read directly: what ``_()`` gives in that language's
    build (for code and tests that ask for a language other than the build's, or no build)."""
    locale = locale or project.current().locale
    compile_catalog(locale, language)
    return gettext.translation(DOMAIN, str(locale), languages=[language], fallback=True)


def translate(language: str, message: str, context: str | None = None) -> str:
    """``message`` (with its ``context``, if marked with one) in ``language``: through the
    catalog registered with Sphinx when that is the build's language, else from the language's
    catalog directly."""
    if context is None:
        return _(message) if language == registered else catalog(language).gettext(message)
    translator = get_translator(DOMAIN) if language == registered else catalog(language)
    return translator.pgettext(context, message)


def setup(app: Sphinx):
    global registered
    language = app.config.language or "en"
    locale = project.current().locale
    compile_catalog(locale, language)
    if registered != language:
        # Sphinx merges a catalog into the translator it already holds for the domain, so a
        # second build in this process (the tests make several) would otherwise go on speaking
        # the first one's language.
        sphinx.locale.translators.pop(("general", DOMAIN), None)
    app.add_message_catalog(DOMAIN, str(locale))
    registered = language
    return {"parallel_read_safe": True, "parallel_write_safe": True}
