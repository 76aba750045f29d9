"""The site's YAML data files (docs/error_atlas.yaml, docs/seed_claims.yaml), each parsed once
per process for as long as its text is the same.

Several pages read the same file, and a Sphinx process parsed it for each (PyYAML's pure
Python parser: about 70 ms for the atlas, 16 times in an English build):
docs/dev/decisions/0038-parse-once-start-sphinx-beside-the-runs.md. The cache is keyed by the
file's text, not its time stamp, so a file changed in between is parsed again; each caller gets
its own copy, which it may change. An error names the file and line, as
``yaml.safe_load(file)`` does.
"""

from __future__ import annotations

import copy
import functools
import io
from pathlib import Path

import yaml


@functools.lru_cache(maxsize=8)
def _parse(name: str, text: str):
    stream = io.StringIO(text)
    stream.name = name  # (PyYAML names it in its errors)
    return yaml.safe_load(stream)


def load(path: Path):
    """`path` parsed as YAML (safe_load): a copy of what the last parse of the same text gave."""
    path = Path(path)
    return copy.deepcopy(_parse(str(path), path.read_text(encoding="utf-8")))
