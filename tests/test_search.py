"""The site's search without a browser: the query file's two halves, and the pure functions of
docs/_static/site-search.js run in Node (tests/site_search.test.mjs). The queries themselves run
in Chromium (tests/test_browser.py)."""

from __future__ import annotations

import hashlib

import search_queries as sq


def test_the_halves_follow_the_rule_in_the_files_header():
    """A query's half is fixed by its text: the last hex digit of the SHA-256 of its UTF-8
    bytes, even for tuning; the file's header says so, in those words."""
    header = "".join(
        line for line in sq.QUERIES.read_text(encoding="utf-8").splitlines() if line.startswith("#")
    )
    for words in ("SHA-256", "UTF-8", "even hex digit", "TUNING", "TEST"):
        assert words in header, f"{sq.QUERIES.name}: its header does not state the rule ({words})"
    for text in ("does clone copy grad", "共用内存", "x.data vs x.detach()"):
        digit = hashlib.sha256(text.encode("utf-8")).hexdigest()[-1]
        expected = sq.TUNING if digit in "02468ace" else sq.TEST
        assert sq.half_of(text) == expected, f"tests/search_queries.py: half_of({text!r})"


def test_both_halves_hold_queries_of_both_languages():
    """Each half of the file has at least 30 queries in each language."""
    queries = sq.read_queries()
    for half in (sq.TUNING, sq.TEST):
        for folder in sq.FOLDERS:
            mine = [q for q in queries if q.half == half and q.folder == folder]
            assert len(mine) >= 30, f"{sq.QUERIES.name}: {len(mine)} {folder} queries in {half}"
