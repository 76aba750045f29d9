"""The search's queries (tests/search_queries.tsv): reading them, their two halves, and running
them in Chromium against the built site.

The halves are fixed by a query's text alone (``half_of``; the rule is also written in the
file's header): the tests assert on the tuning half and only report the test half's score, so
that the score of the test half says how the search does on queries it was never tuned on.

Run alone, this scores the built site's search on every query, half by half and language by
language, for comparing two versions of the ranking script:

    .nox/tests/bin/python tests/search_queries.py [--script old-site-search.js] [--misses]

``--script`` serves the given file in place of the site's ``_static/site-search.js`` (an older
version: ``git show <commit>:docs/_static/site-search.js > /tmp/old.js``). ``--misses`` lists
the tuning half's misses; the test half's are never listed, only counted.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "tests" / "search_queries.tsv"
HTML = ROOT / "docs" / "_build" / "html"
QUERY_KINDS = {"error", "vs", "question", "code", "none"}
FOLDERS = ("en", "zh-cn")
TUNING, TEST = "tuning", "test"
# The error atlas's page; a pasted message of the atlas is answered by its entry there
# (errors#err-<id>), by the rule in `atlas_entries` (the file's header states it).
ATLAS_PAGE = "errors"
ATLAS_RUN = 5  # words of a message in a row: a pasted message, not a few of its common words


def half_of(text: str) -> str:
    """The half a query is in, by its text alone: the SHA-256 of its UTF-8 bytes ends in an even
    hex digit (tuning) or an odd one (test)."""
    return (
        TUNING if int(hashlib.sha256(text.encode("utf-8")).hexdigest()[-1], 16) % 2 == 0 else TEST
    )


def message_words(text: str) -> list[str]:
    """The words of a message as the rule compares them: lower case, letters, digits and
    underscores; numbers dropped (a learner's sizes and versions are not the atlas's)."""
    return [w for w in re.findall(r"[a-z0-9_]+", text.lower()) if not w.isdigit()]


def atlas_messages() -> dict[str, tuple[list[str], str]]:
    """Each atlas entry's anchor (err-<id>), the words of its messages as the page shows them
    (``RuntimeError: ...``) and its heading (the message's headline), from the error atlas
    generator's CPU transcript."""
    from whatcopy.core import transcripts
    from whatcopy.reference import atlas

    printed = atlas.printed(transcripts.by_name(atlas.NAME).transcript("cpu"))
    return {
        entry.anchor: (
            message_words(" ".join(m.shown for m in entry.messages)),
            entry.message.headline,
        )
        for entry in atlas.parse(printed).entries
    }


def _in_order(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many words of `a` `b` holds in the same order (their longest common subsequence),
    and the most of them in a row."""
    common = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    row = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    longest = 0
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            if x == y:
                common[i][j] = common[i - 1][j - 1] + 1
                row[i][j] = row[i - 1][j - 1] + 1
                longest = max(longest, row[i][j])
            else:
                common[i][j] = max(common[i - 1][j], common[i][j - 1])
    return common[-1][-1], longest


def besides(heading: str, text: str) -> int:
    """How many words of a heading the query `text` lacks (words of two letters or more,
    numbers left out), as site-search.js's besides() counts them."""
    asked = set(re.findall(r"[a-z0-9_]+", text.lower()))
    return sum(
        1
        for w in re.findall(r"[a-z0-9_]+", heading.lower())
        if len(w) > 1 and not w.isdigit() and w not in asked
    )


def atlas_entries(text: str, messages: dict[str, tuple[list[str], str]]) -> tuple[str, ...]:
    """The atlas entries that answer a pasted message (a query of kind error): the entry whose
    messages hold the most of the query's words in the query's order; of several, the one whose
    heading (the message's headline) has the fewest words the query lacks ("a leaf Variable ..."
    rather than "a view of a leaf Variable ..."), then the one whose messages have the fewest
    words besides those it holds; and with it every entry under the same heading that holds as
    many (the page shows them as one message). Only an entry whose messages hold ATLAS_RUN of
    the query's words in a row counts: none for a learner's words about an error, or for a
    message the atlas does not show."""
    mine = message_words(text)
    scored = []
    for anchor, (words, heading) in messages.items():
        common, longest = _in_order(mine, words)
        if longest >= ATLAS_RUN:
            key = (common, -besides(heading, text), common - len(words))
            scored.append((key, anchor, heading))
    if not scored:
        return ()
    best, _, heading = max(scored, key=lambda s: s[0])
    return tuple(a for k, a, h in scored if k == best or (h == heading and k[0] == best[0]))


@dataclasses.dataclass(frozen=True)
class Query:
    line: int
    folder: str
    kind: str
    text: str
    answers: tuple[str, ...]  # pages, without their section
    source: str
    rows: tuple[str, ...] = ()  # page#op-name: an operator's row, where the result must land
    entries: tuple[str, ...] = ()  # errors#err-id: the atlas entries a result there must land on

    @property
    def half(self) -> str:
        return half_of(self.text)

    def __str__(self) -> str:
        return f"{QUERIES.name}:{self.line}: {self.folder} {self.text!r}"


def read_queries(path: Path = QUERIES, html: Path = HTML) -> list[Query]:
    """The queries of tests/search_queries.tsv; a malformed line fails naming its file and line.
    A page or section a query names must exist in the built site (`html`)."""
    queries, header = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            continue
        where = f"{path.name}:{number}"
        assert len(cells) == len(header), f"{where}: {len(cells)} cells, not {len(header)}"
        row = dict(zip(header, cells))
        assert row["language"] in FOLDERS, f"{where}: language {row['language']!r}"
        assert row["kind"] in QUERY_KINDS, f"{where}: kind {row['kind']!r}"
        assert row["query"].strip() and row["source"].strip(), f"{where}: query and source"
        answers = () if row["answers"] == "-" else tuple(row["answers"].split())
        assert bool(answers) == (row["kind"] != "none"), f"{where}: answers, or - for none"
        pages = []
        for answer in answers:
            page, _, section = answer.partition("#")
            built = html / row["language"] / f"{page}.html"
            assert built.exists(), f"{where}: no page {page}"
            if section:
                assert f'id="{section}"' in built.read_text(encoding="utf-8"), (
                    f"{where}: no section {answer}"
                )
            pages.append(page)
        rows = tuple(a for a in answers if a.partition("#")[2].startswith("op-"))
        entries = tuple(a for a in answers if a.partition("#")[2].startswith("err-"))
        queries.append(
            Query(
                number,
                row["language"],
                row["kind"],
                row["query"],
                tuple(pages),
                row["source"],
                rows,
                entries,
            )
        )
    return queries


# One query on the search page it is loaded on: how many pages it lists, whether they are
# matches (or only the closest pages, under a notice), and the first three as the search page
# links them (site-search.js ranks the pages, then describes the ones it shows). An older
# site-search.js, whose rank() gave the list of matches alone, is read as such.
TOP_THREE = """async (query) => {
  const outcome = await SiteSearch.rank(query);
  const ranked = Array.isArray(outcome) ? outcome : outcome.ranked;
  const matched = Array.isArray(outcome) ? ranked.length > 0 : outcome.matched;
  const top = [];
  for (const page of ranked.slice(0, 3)) top.push((await SiteSearch.describe(page, query)).url);
  return [Math.min(ranked.length, SiteSearch.MAX_RESULTS), matched, top];
}"""
RUN_ALL = f"""async (queries) => {{
  const one = {TOP_THREE};
  const out = [];
  for (const query of queries) out.push(await one(query));
  return out;
}}"""


def page_of(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).path.rsplit("/", 1)[-1].removesuffix(".html")


def landed(url: str) -> str:
    from urllib.parse import urlsplit

    return f"{page_of(url)}#{urlsplit(url).fragment}"


@dataclasses.dataclass(frozen=True)
class Outcome:
    query: Query
    listed: int  # how many pages the search lists
    matched: bool  # whether they are matches, not only the closest pages
    top: tuple[str, ...]  # the first three results' addresses

    def answers(self, url: str) -> bool:
        """Whether a result answers the query: its page is an answer, and a result on the error
        atlas lands on an entry the query lists."""
        page = page_of(url)
        if page not in self.query.answers:
            return False
        if page == ATLAS_PAGE and self.query.entries:
            return landed(url) in self.query.entries
        return True

    @property
    def answered(self) -> bool:
        """An answering page among the first three (at its row, for an operator's row; at its
        entry, for the error atlas); for a query the site has no answer for, no page listed as a
        match (nothing, or the closest pages under the notice that no page holds the query)."""
        if self.query.kind == "none":
            return not (self.listed and self.matched)
        if not any(self.answers(url) for url in self.top):
            return False
        return not self.query.rows or bool({landed(url) for url in self.top} & set(self.query.rows))

    @property
    def on_entry(self) -> bool:
        """Whether the first three land on an atlas entry the query lists."""
        return bool({landed(url) for url in self.top} & set(self.query.entries))

    def why(self) -> str:
        if self.query.kind == "none":
            return (
                f"{self.query}: nothing on the site answers it, yet it lists {self.listed} "
                f"matches: {[landed(u) for u in self.top]}"
            )
        return (
            f"{self.query}: the first three land on {[landed(u) for u in self.top]}, "
            f"none of {list(self.query.rows or self.query.answers)}"
        )

    def why_not_on_entry(self) -> str:
        return (
            f"{self.query}: the first three land on {[landed(u) for u in self.top]}, "
            f"not on its atlas entry {list(self.query.entries)}"
        )


def run(tab, site_url: str, queries: list[Query], script: Path | None = None) -> list[Outcome]:
    """The queries run on each language's search page in `tab`; `script` replaces the site's
    site-search.js (a route of the tab, removed after)."""
    pattern = "**/_static/site-search.js*"
    if script is not None:
        body = script.read_text(encoding="utf-8")
        tab.route(pattern, lambda route: route.fulfill(body=body, content_type="text/javascript"))
    outcomes = []
    try:
        for folder in FOLDERS:
            mine = [q for q in queries if q.folder == folder]
            if not mine:
                continue
            tab.goto(f"{site_url}/{folder}/search.html")
            tab.wait_for_function("typeof SiteSearch !== 'undefined'")
            for query, (listed, matched, top) in zip(
                mine, tab.evaluate(RUN_ALL, [q.text for q in mine])
            ):
                outcomes.append(Outcome(query, listed, matched, tuple(top)))
    finally:
        if script is not None:
            tab.unroute(pattern)
    return outcomes


def against_known_misses(outcomes, known: dict, key, passed, why, name=str) -> list[str]:
    """What a run of a tuning half says against its list of known misses (`known`: key -> why it
    misses), one line each: an outcome that missed and is not listed (`why(outcome)`), and one
    that passed and is listed (the list must stay true), named by `name(outcome)`.
    `key(outcome)` is the entry's key, `passed(outcome)` whether the outcome passed. (Whether every listed key is in the half is
    the caller's check.)"""
    lines = []
    for outcome in outcomes:
        listed = key(outcome) in known
        if not passed(outcome) and not listed:
            lines.append(why(outcome))
        elif passed(outcome) and listed:
            lines.append(
                f"{name(outcome)}: passes now, yet is a known miss ({known[key(outcome)]})"
            )
    return lines


def score(outcomes: list[Outcome], half: str, folder: str | None = None) -> tuple[int, int]:
    """(answered, queries) of one half, in one language or both."""
    mine = [o for o in outcomes if o.query.half == half and folder in (None, o.query.folder)]
    return sum(o.answered for o in mine), len(mine)


def empty_on_topic(outcomes: list[Outcome], half: str) -> int:
    """How many queries of a half that the site answers list no page at all."""
    return sum(
        1 for o in outcomes if o.query.half == half and o.query.kind != "none" and not o.listed
    )


def on_entries(outcomes: list[Outcome], half: str) -> tuple[int, int]:
    """(landing on their atlas entry among the first three, pasted messages with an entry) of
    a half: queries of kind error (another kind that names an entry among its answers, such as a
    "vs" about the API a warning names, is answered by its other pages as well)."""
    mine = [
        o for o in outcomes if o.query.half == half and o.query.kind == "error" and o.query.entries
    ]
    return sum(o.on_entry for o in mine), len(mine)


def summary(outcomes: list[Outcome], half: str) -> str:
    parts = []
    for folder in (*FOLDERS, None):
        answered, total = score(outcomes, half, folder)
        # one decimal, cut, not rounded: 183 of 193 is 94.8 %, and must not read as 95 %
        share = f"{answered * 1000 // total / 10:.1f} %" if total else "-"
        parts.append(f"{folder or 'all'} {answered}/{total} ({share})")
    landed_on, pasted = on_entries(outcomes, half)
    return (
        f"search, {half} half: answered in the first three: {', '.join(parts)}; "
        f"on-topic queries listing nothing: {empty_on_topic(outcomes, half)}; "
        f"pasted messages on their atlas entry among the first three: {landed_on}/{pasted}"
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    from whatcopy.site.browser import CHROMIUM, CHROMIUM_ARGS, serving

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", type=Path, help="a site-search.js to run instead of the site's")
    parser.add_argument("--misses", action="store_true", help="list the tuning half's misses")
    parser.add_argument("--tuning", action="store_true", help="run and score the tuning half only")
    args = parser.parse_args()
    queries = [q for q in read_queries() if not args.tuning or q.half == TUNING]
    with serving(HTML) as site_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        tab = browser.new_page()
        tab.set_default_timeout(300_000)
        outcomes = run(tab, site_url, queries, args.script)
        browser.close()
    for half in (TUNING,) if args.tuning else (TUNING, TEST):
        print(summary(outcomes, half))
    if args.misses:
        for outcome in outcomes:
            if outcome.query.half == TUNING and not outcome.answered:
                print(outcome.why())
        for outcome in outcomes:
            if outcome.query.half == TUNING and outcome.query.entries and not outcome.on_entry:
                print(outcome.why_not_on_entry())
    return 0


if __name__ == "__main__":
    sys.exit(main())
