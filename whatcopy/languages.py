"""The site's languages: the one table (languages.json, beside this module, package data) that
the build, the Sphinx extensions, the tests, the noxfile and the benchmark read."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources


@dataclasses.dataclass(frozen=True)
class Language:
    source: str  # its pages: docs/<source>/
    folder: str  # its site: <build>/html/<folder>/
    hreflang: str
    sphinx: str  # Sphinx's `language` in its conf.py
    name: str  # the language's name in itself, for the switcher


def _table() -> dict[str, Language]:
    text = resources.files("whatcopy").joinpath("languages.json").read_text(encoding="utf-8")
    return {key: Language(**fields) for key, fields in json.loads(text).items()}


# The site's languages, keyed by source folder (also their names on the command line).
LANGUAGES = _table()
