"""The answer on the first screen (issue #29): for each question learners ask most
(tests/first_screen.yaml), the section that answers it, opened in Chromium at a desktop's and a
phone's size, shows the answer's phrase on the first screen once the browser has scrolled to the
section; and the site's search, given the question, offers that section beside its page.

The answer on the first screen is a requirement on the content of a fixed list of questions, so
it is asserted for every question, in both languages, at both sizes. The search is a ranking,
judged on queries it was not tuned on: the questions are split into a tuning half and a test half
by their text alone (search_queries.half_of, the rule of tests/search_queries.tsv); the search
test asserts on the tuning half, and the test half's search score goes to the test summary,
unasserted (decision 0034 and its amendment).

Run alone, this prints how many questions are answered on the first screen, by language and size,
and, for each half, how many the search offers at their section:

    PYTHONPATH=$PWD .nox/tests/bin/python tests/test_first_screen.py [--misses]

(``--misses`` lists every first-screen miss and the tuning half's search misses; the test half's
search misses are only counted.)
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import search_queries as sq
import yaml
from project import DOCS, HTML, LABEL, LANGUAGES, NOTES

QUESTIONS_FILE = Path(__file__).with_name("first_screen.yaml")
# A desktop's first screen and a phone's (a 390x844 phone, touch and mobile viewport handling).
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@dataclasses.dataclass(frozen=True)
class Question:
    id: str
    language: str  # its source folder: en or zh
    query: str
    page: str
    label: str
    answer: str

    @property
    def half(self) -> str:
        return sq.half_of(self.query)

    @property
    def folder(self) -> str:
        return LANGUAGES[self.language][0]

    def __str__(self) -> str:
        return f"{QUESTIONS_FILE.name}: {self.id} ({self.language}) {self.query!r}"


def read_questions(path: Path = QUESTIONS_FILE) -> list[Question]:
    """The questions of tests/first_screen.yaml, one per language; an entry without a query,
    section or answer in a language fails, naming the file and the entry."""
    questions = []
    for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
        for language in LANGUAGES:
            asked = entry.get(language) or {}
            where = f"{path.name}: {entry.get('id')} ({language})"
            assert {"query", "section", "answer"} <= set(asked), f"{where}: query, section, answer"
            page, _, label = asked["section"].partition("#")
            assert page and label, f"{where}: section {asked['section']!r} is not page#label"
            questions.append(
                Question(entry["id"], language, asked["query"], page, label, asked["answer"])
            )
    return questions


QUESTIONS = read_questions()
TUNING = [q for q in QUESTIONS if q.half == sq.TUNING]
TEST = [q for q in QUESTIONS if q.half == sq.TEST]


def by_page(question: Question) -> tuple[str, str]:
    return question.folder, question.page


def test_every_question_names_a_section_of_its_page_and_the_halves_are_both_filled():
    """Each question's section is a label of its page's source, and each half holds a third of
    the questions at least (the split is by hash, not chosen)."""
    wrong = []
    for question in QUESTIONS:
        source = DOCS / question.language / f"{question.page}.md"
        labels = (
            {
                m["label"]
                for line in source.read_text(encoding="utf-8").splitlines()
                if (m := LABEL.match(line))
            }
            if source.exists()
            else set()
        )
        if question.label not in labels:
            wrong.append(f"{question}: no label ({question.label})= in {source.relative_to(DOCS)}")
    assert not wrong, "\n".join(wrong)
    assert min(len(TUNING), len(TEST)) >= len(QUESTIONS) / 3, (len(TUNING), len(TEST))


# Where the answer's phrase is on the screen, once the browser has scrolled to the section: each
# occurrence of the phrase in the section's text (spaces in the phrase match any white space), its
# box (a Range's client rectangles), whether it is rendered (checkVisibility: not display:none,
# not visibility:hidden, not transparent; and not inside a folded <details>), and the part of the
# screen that the sticky header does not cover.
PLACE = r"""([label, answer]) => {
  const target = document.getElementById(label);
  if (!target) return {section: false};
  const root = target.closest("section") ?? target;
  const nodes = [];
  let text = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest("script, style")) continue;
    nodes.push([node, text.length]);
    // Sphinx's smart quotes: the phrase's ' and " match the page's curly ones (one character each)
    text += node.data.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');
  }
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(answer.trim().split(/\s+/).map(escape).join("\\s+"), "gi");
  const at = (offset) => {
    let i = nodes.length - 1;
    while (i > 0 && nodes[i][1] > offset) i--;
    return [nodes[i][0], offset - nodes[i][1]];
  };
  // what the reader sees: the visual viewport (a phone zooms out a page wider than its screen)
  const view = window.visualViewport;
  let covered = view.offsetTop;
  for (const header of document.querySelectorAll("header, .bd-header, .bd-header-article")) {
    const style = getComputedStyle(header);
    const box = header.getBoundingClientRect();
    if (["fixed", "sticky"].includes(style.position) && box.top <= 0 && box.bottom > covered) covered = box.bottom;
  }
  const found = [];
  for (const match of text.matchAll(pattern)) {
    const range = document.createRange();
    range.setStart(...at(match.index));
    const [endNode, endOffset] = at(match.index + match[0].length - 1);
    range.setEnd(endNode, endOffset + 1);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const element = range.startContainer.parentElement;
    const shown =
      boxes.length > 0 &&
      !element.closest("details:not([open])") &&
      element.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
    found.push({
      shown,
      top: boxes.length ? Math.min(...boxes.map((r) => r.top)) : null,
      bottom: boxes.length ? Math.max(...boxes.map((r) => r.bottom)) : null,
    });
  }
  return {section: true, found, covered, height: view.offsetTop + view.height, scrolled: window.scrollY,
          width: document.documentElement.scrollWidth,
          heading: root.querySelector("h1, h2, h3, h4")?.getBoundingClientRect().top ?? null};
}"""


@dataclasses.dataclass(frozen=True)
class Placed:
    question: Question
    screen: str
    seen: dict

    @property
    def on_first_screen(self) -> bool:
        """Some occurrence of the phrase is rendered, whole, below the sticky header and above the
        bottom of the screen."""
        return self.seen.get("section", False) and any(
            f["shown"] and f["top"] >= self.seen["covered"] and f["bottom"] <= self.seen["height"]
            for f in self.seen["found"]
        )

    def why(self) -> str:
        q = self.question
        where = f"{q}: {q.folder}/{q.page}.html#{q.label} at {self.screen} size"
        if not self.seen.get("section"):
            return f"{where}: the page has no section {q.label}"
        if not self.seen["found"]:
            return f"{where}: the section never says {q.answer!r}"
        first = self.seen["found"][0]
        if not first["shown"]:
            return f"{where}: {q.answer!r} is hidden (folded, or not rendered)"
        return (
            f"{where}: {q.answer!r} is at {first['top']:.0f} to {first['bottom']:.0f}px, outside "
            f"the first screen ({self.seen['covered']:.0f} to {self.seen['height']:.0f}px, the page "
            f"{self.seen['width']}px wide; the "
            f"section's heading at {self.seen['heading']:.0f}px)"
        )


def place(tab, site_url: str, question: Question, screen: str) -> Placed:
    """The question's section opened in `tab` (a tab of `screen`'s size), as a reader's link to it
    opens it: the browser scrolls to the section once the page has loaded. A tab already on the
    page goes to the section as a link within the page does (the address's fragment changes and
    the browser scrolls to it): one load of a page serves all its questions, in a row."""
    page = f"{site_url}/{question.folder}/{question.page}.html"
    if tab.url.partition("#")[0] == page:
        # (emptied first: a fragment set again to what it is would not scroll)
        tab.evaluate("(label) => { location.hash = ''; location.hash = label; }", question.label)
    else:
        tab.goto("about:blank")
        tab.goto(f"{page}#{question.label}", wait_until="load")
        tab.evaluate("document.fonts.ready.then(() => true)")
    # two frames: whatever the page's scripts laid out at load is on the screen
    tab.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return Placed(question, screen, tab.evaluate(PLACE, [question.label, question.answer]))


# The sections the search offers for a question: of its first three results, each page's first
# section link (site-search.js's describe(): the page's best section, or the row or entry it
# lands on), by page.
OFFERED = """async (query) => {
  const outcome = await SiteSearch.rank(query);
  const offered = [];
  for (const page of outcome.ranked.slice(0, 3)) {
    const shown = await SiteSearch.describe(page, query);
    offered.push([shown.url, shown.sections[0]?.url ?? null]);
  }
  return offered;
}"""


@functools.cache
def sections_of(folder: str, page: str) -> dict[str, str]:
    """The ids of a built page that a section link can land on, each with the label of the
    section it opens: a section's own id (its label) and its heading's (the search's links go to
    the heading, whose id Sphinx makes from its title)."""
    built = HTML / folder / f"{page}.html"
    text = built.read_text(encoding="utf-8") if built.exists() else ""
    found = {}
    for section, spans, heading in re.findall(
        r'<section[^>]*\bid="([^"]+)"[^>]*>\s*((?:<span id="[^"]+"></span>\s*)*)'
        r'<h[1-6][^>]*\bid="([^"]+)"',
        text,
    ):
        for anchor in (section, heading, *re.findall(r'id="([^"]+)"', spans)):
            found[anchor] = section
    return found


def section_at(folder: str, url: str | None) -> str | None:
    """The page#label a result's address lands on (None: the top of a page)."""
    if not url:
        return None
    parts = urlsplit(url)
    page = sq.page_of(url)
    anchor = unquote(parts.fragment)
    return f"{page}#{sections_of(folder, page).get(anchor, anchor)}" if anchor else None


@dataclasses.dataclass(frozen=True)
class Offered:
    question: Question
    offered: tuple  # (result's address, its first section link's address), the first three

    @property
    def at_section(self) -> bool:
        """Among the first three, the question's page, with its section as the first section link
        (or as the result's own address)."""
        q = self.question
        answer = f"{q.page}#{q.label}"
        return any(
            sq.page_of(url) == q.page
            and answer in (section_at(q.folder, url), section_at(q.folder, section))
            for url, section in self.offered
        )

    def why(self) -> str:
        q = self.question
        shown = [
            section_at(q.folder, section) or section_at(q.folder, url) or sq.page_of(url)
            for url, section in self.offered
        ]
        return f"{q}: the search's first three offer {shown}, not {q.page}#{q.label}"


def offered(tab, site_url: str, questions: list[Question]) -> list[Offered]:
    """The questions searched on their language's search page in `tab`."""
    found = []
    for folder in dict.fromkeys(q.folder for q in questions):
        tab.goto(f"{site_url}/{folder}/search.html")
        tab.wait_for_function("typeof SiteSearch !== 'undefined'")
        for question in (q for q in questions if q.folder == folder):
            found.append(
                Offered(question, tuple(map(tuple, tab.evaluate(OFFERED, question.query))))
            )
    return found


def placed_summary(placed: list[Placed]) -> str:
    """How many checks show the answer on the first screen, in all and by language and size."""
    parts = []
    for language in LANGUAGES:
        for screen in SCREENS:
            mine = [p for p in placed if p.question.language == language and p.screen == screen]
            parts.append(f"{language} {screen} {sum(p.on_first_screen for p in mine)}/{len(mine)}")
    both = sum(p.on_first_screen for p in placed)
    return (
        f"first screen, all questions: answer on the first screen {both}/{len(placed)} "
        f"({', '.join(parts)})"
    )


def search_summary(searched: list[Offered], half: str) -> str:
    """How many of a half's questions the search offers at their answering section."""
    at = sum(o.at_section for o in searched)
    return (
        f"first screen, {half} half: the search offers the answering section "
        f"{at}/{len(searched)}" + (" (reported only)" if half == sq.TEST else "")
    )


# --- In the browser ------------------------------------------------------------------------------

pytestmark = pytest.mark.browser

if __name__ != "__main__":
    # the site's server and Chromium, as tests/test_browser.py starts them
    from test_browser import PATIENCE_MS, Problems, browser, site_url  # noqa: F401


@pytest.fixture(scope="module")
def screens(browser):
    """A tab of each size, reused question after question."""
    tabs, contexts = {}, []
    for screen, size in SCREENS.items():
        phone = screen == "phone"
        context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
        contexts.append(context)
        tabs[screen] = context.new_page()
    yield tabs
    for context in contexts:
        context.close()


@pytest.mark.parametrize("screen", SCREENS)
# (the questions of a page in a row: `place` loads each page once)
@pytest.mark.parametrize("question", sorted(QUESTIONS, key=by_page), ids=str)
def test_the_answer_is_on_the_first_screen(question, screen, screens, site_url):
    """The section that answers the question, opened at a desktop's and at a phone's size, shows
    the answer's phrase whole on the first screen: below the sticky header, above the screen's
    bottom, rendered, not inside a folded block."""
    placed = place(screens[screen], site_url, question, screen)
    assert placed.on_first_screen, placed.why()


# Questions of the tuning half whose answering section the search does not offer, and why: each
# is expected to miss (strictly: one that starts to pass fails, so that this list stays true).
SEARCH_MISSES = {
    (
        "from-numpy",
        "en",
    ): "from_numpy is not looked up (the query's words are torch, share, memory, "
    "array); the link goes to the subsection below the answer, Which arrays are shared",
    ("to-device", "en"): "three sections hold device, make and copy; of headings that hold none of "
    "them, NumPy and CUDA tensors says the least besides the query",
    ("dtype", "en"): "the values page is not among the first three (the page's rank)",
    ("detach-memory", "zh"): "the detach page is not among the first three (the page's rank)",
    ("data-vs-detach", "zh"): "the inplace page is not among the first three (the page's rank)",
    ("tensor-vs-Tensor", "zh"): "the values page is not among the first three (the page's rank)",
    ("inplace-backward", "zh"): "two sections hold all four words; of their headings, which hold "
    "none, the one without a Latin word (手写权重更新) says the least besides the query",
}


def test_the_search_offers_the_answering_section(screens, site_url):
    """Each question of the tuning half, typed into the site's search, lists the answering page
    among the first three with the answering section as its first section link: the link leads to
    the answer, not to the section with the most matches. The questions run one after the other
    on each language's search page; a failure names each question that missed, and each of
    SEARCH_MISSES that is now offered at its section (the list must stay true)."""
    tab = screens["desktop"]
    problems = Problems(tab, site_url)
    try:
        outcomes = offered(tab, site_url, TUNING)
    finally:
        problems.stop()
    assert not problems, "\n".join(problems)
    stale = set(SEARCH_MISSES) - {(q.id, q.language) for q in TUNING}
    assert not stale, f"SEARCH_MISSES names questions the tuning half does not hold: {stale}"
    wrong = sq.against_known_misses(
        outcomes,
        SEARCH_MISSES,
        key=lambda o: (o.question.id, o.question.language),
        passed=lambda o: o.at_section,
        why=lambda o: o.why(),
        name=lambda o: str(o.question),
    )
    assert not wrong, "\n".join(wrong)


def test_the_test_half_is_run_and_its_score_reported(request, screens, site_url):
    """The test half's questions, typed into the search as the tuning half's are; its search
    score goes to the test summary, unasserted (their answers on the first screen are asserted,
    with every other question's, by test_the_answer_is_on_the_first_screen)."""
    searched = offered(screens["desktop"], site_url, TEST)
    request.config.stash.setdefault(NOTES, []).append(search_summary(searched, sq.TEST))


def test_the_check_sees_an_answer_pushed_below_the_fold_or_folded(screens, site_url):
    """The check can fail: the same answer, with a tall block put before it, is below the first
    screen; inside a folded <details>, it is hidden."""
    question = TUNING[0]
    tab = screens["phone"]
    try:
        seeded_faults_are_seen(tab, site_url, question)
    finally:
        tab.goto("about:blank")  # the page is left broken: the next check loads it again


def seeded_faults_are_seen(tab, site_url: str, question: Question) -> None:
    assert place(tab, site_url, question, "phone").on_first_screen, question
    for fault, why in (
        (
            "el.before(Object.assign(document.createElement('div'), {style: 'height: 900px'}))",
            "outside the first screen",
        ),
        (
            "const d = document.createElement('details'); el.replaceWith(d); d.append(el)",
            "is hidden",
        ),
    ):
        seen = tab.evaluate(
            f"""([label, answer]) => {{
                  const root = document.getElementById(label).closest("section");
                  const el = [...root.querySelectorAll("p, li")].find((e) =>
                    e.textContent.replace(/\\s+/g, " ").includes(answer));
                  {fault};
                  document.getElementById(label).scrollIntoView();
                  return ({PLACE})([label, answer]);
                }}""",
            [question.label, question.answer],
        )
        placed = Placed(question, "phone", seen)
        assert not placed.on_first_screen and why in placed.why(), placed.why()


def main() -> int:
    from playwright.sync_api import sync_playwright

    from whatcopy.site.browser import CHROMIUM, CHROMIUM_ARGS, serving

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--misses",
        action="store_true",
        help="list the first-screen misses and the tuning half's search misses",
    )
    args = parser.parse_args()
    with serving(HTML) as address, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        tabs = {}
        for screen, size in SCREENS.items():
            phone = screen == "phone"
            context = chromium.new_context(viewport=size, is_mobile=phone, has_touch=phone)
            context.set_default_timeout(300_000)
            tabs[screen] = context.new_page()
        placed = [
            place(tabs[s], address, q, s) for q in sorted(QUESTIONS, key=by_page) for s in SCREENS
        ]
        print(placed_summary(placed))
        searched = {}
        for half, questions in ((sq.TUNING, TUNING), (sq.TEST, TEST)):
            searched[half] = offered(tabs["desktop"], address, questions)
            print(search_summary(searched[half], half))
        chromium.close()
    if args.misses:
        for miss in [p.why() for p in placed if not p.on_first_screen] + [
            o.why() for o in searched[sq.TUNING] if not o.at_section
        ]:
            print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
