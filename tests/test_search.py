"""The site's search without a browser: the query file's two halves, and the pure functions of
docs/_static/site-search.js run in Node (tests/site_search.test.cjs). The queries themselves run
in Chromium (tests/test_browser.py)."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

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


def test_the_search_scripts_pure_functions_pass_their_node_tests():
    """tests/site_search.test.cjs: the ranking's pure functions (splitting, weights, passages,
    the bar, the boosts, the section that answers) in Node's own test runner."""
    import shutil
    import subprocess

    node = shutil.which("node")
    assert node, "node is missing: apt-get install nodejs (nox -s tests installs it)"
    run = subprocess.run(
        [node, "--test", str(sq.ROOT / "tests" / "site_search.test.cjs")],
        capture_output=True,
        text=True,
        cwd=sq.ROOT,
        check=False,
    )
    assert run.returncode == 0, f"tests/site_search.test.cjs failed:\n{run.stdout}{run.stderr}"
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout


def test_a_readers_word_is_looked_up_as_the_sites():
    """The search page's table of readers' words (site_search.synonyms): the variants
    docs/terms.tsv says the Chinese pages avoid, with the site's term, and the words Chinese
    sources use that the glossary does not list (共享 for the pages' 共用); not a variant listed
    only by its context (的克隆) nor one in Latin letters (batch)."""
    from whatcopy.sphinxext.site_languages import read_terms
    from whatcopy.sphinxext.site_search import synonyms

    table = synonyms(read_terms())
    assert table["共享"] == ["共用"] and table["就地操作"] == ["原地操作"]
    assert table["拷贝"] == ["副本"] and table["原始张量"] == ["原张量"]
    assert table["泄露"] == ["泄漏"] and table["中间变量"] == ["非叶子张量", "中间张量"]
    assert not {"的克隆", "克隆有", "batch"} & set(table), sorted(table)


def test_a_terms_english_in_a_chinese_query_is_looked_up_as_its_chinese():
    """The search page's table of the terms' English (site_search.english_terms): each term of
    docs/terms.tsv whose English is one word, with the Chinese the pages write for it (view:
    视图), for a Chinese query that types the English; not one whose Chinese is the English
    itself (grad_fn) or holds Latin letters (Python number: Python 数字); a word of a term joined
    by a hyphen is listed joined (in-place: inplace), and so is a term of several words (leaf
    tensor: leaftensor), never with its spaces, unless the pages print the joined word as a
    name (deepcopy: copy.deepcopy, which is what a reader who types it means)."""
    from whatcopy.sphinxext.site_languages import read_terms
    from whatcopy.sphinxext.site_search import english_terms

    table = english_terms(read_terms())
    assert table["view"] == ["视图"] and table["hook"] == ["钩子"] and table["storage"] == ["存储"]
    assert not {"grad_fn", "leaf tensor", "in-place operation", "视图"} & set(table), sorted(table)
    assert table["inplace"] == ["原地操作"] and table["stopgradient"] == ["阻断梯度"]
    assert table["nograd"] == ["无梯度模式"] and "in-place" not in table
    assert table["leaftensor"] == ["叶子张量"] and table["versioncounter"] == ["版本计数器"]
    assert table["inplaceoperation"] == ["原地操作"] and "pythonnumber" not in table
    assert table["deepcopy"] == ["深拷贝"]
    named = english_terms(read_terms(), frozenset({"deepcopy", "leaf"}))
    assert "deepcopy" not in named and named["leaftensor"] == ["叶子张量"]


def test_every_pasted_message_lists_the_atlas_entries_that_show_it():
    """Every query of kind error lists, among its answers, exactly the error atlas entries that
    the rule of the file's header gives (tests/search_queries.py, atlas_entries), and no query
    the site has no answer for (kind none) is a message the atlas shows."""
    messages = sq.atlas_messages()
    assert len(messages) >= 60, f"{len(messages)} atlas entries read from the transcript"
    wrong = []
    for query in sq.read_queries():
        expected = {f"{sq.ATLAS_PAGE}#{a}" for a in sq.atlas_entries(query.text, messages)}
        if query.kind in ("error", "none") and set(query.entries) != expected:
            wrong.append(
                f"{query}: lists {sorted(query.entries)}, the rule gives {sorted(expected)}"
            )
    assert not wrong, "\n".join(wrong)


def test_the_atlas_rule_finds_an_entry_by_its_message_and_only_by_it():
    """The rule on made-up queries: a message cut short or with the learner's sizes finds its
    entry, the one whose heading says the least besides the query among those that hold it
    (all of them under one heading); four words of it in a row, or a learner's words around it,
    find nothing."""

    def entry(message: str) -> tuple[list[str], str]:
        return sq.message_words(message), message

    messages = {
        "err-leaf": entry("RuntimeError: a leaf Variable that requires grad is used."),
        "err-view": entry("RuntimeError: a view of a leaf Variable that requires grad is used."),
        "err-size": entry("RuntimeError: size [3] of tensor a must match size [4]"),
        "err-size-again": entry("RuntimeError: size [3] of tensor a must match size [4]"),
    }
    assert sq.atlas_entries("a leaf Variable that requires grad", messages) == ("err-leaf",)
    assert sq.atlas_entries("a view of a leaf Variable", messages) == ("err-view",)
    assert sq.atlas_entries("size [10] of tensor a must match size [12]", messages) == (
        "err-size",
        "err-size-again",
    )
    assert sq.atlas_entries("leaf Variable that requires", messages) == ()
    assert sq.atlas_entries("deepcopy 报错 graph leaves", messages) == ()


def test_a_result_on_the_atlas_answers_only_at_an_entry_the_query_lists():
    """The score's rule (search_queries.Outcome): a result on the error atlas counts where it
    lands on an entry the query lists; another answering page counts as before."""
    query = sq.Query(1, "en", "error", "m", ("inplace", "errors"), "s", (), ("errors#err-a",))

    def answered(*top: str) -> bool:
        return sq.Outcome(query, 3, True, tuple(f"http://x/en/{url}" for url in top)).answered

    assert answered("errors.html#err-a", "flags.html")
    assert not answered("errors.html#err-b", "flags.html")
    assert not answered("errors.html", "flags.html")
    assert answered("errors.html#err-b", "inplace.html")


def test_an_extensions_section_id_moves_to_its_heading_for_pagefind():
    """site_search.mark_page_text: an atlas entry's id (on its <section> alone) moves onto its
    heading, so that Pagefind makes the entry a section a result can land on; a heading that
    has its own id keeps it, and its section keeps the label's id."""
    from whatcopy.sphinxext.site_search import mark_page_text

    context = {
        "body": '<section class="atlas-entry" id="err-x">\n<h4>RuntimeError: x</h4>\n</section>\n'
        '<section id="label">\n<span id="own"></span><h2>Own</h2>\n</section>'
    }
    mark_page_text(WEIGHING_NOTHING, "errors", "page.html", context, object())
    assert '<section class="atlas-entry">\n<h4 id="err-x">RuntimeError: x</h4>' in context["body"]
    assert '<section id="label">\n<h2 id="own">Own</h2>' in context["body"]


# a Sphinx application as mark_page_text sees it: its configuration, here weighing no page
WEIGHING_NOTHING = SimpleNamespace(config=SimpleNamespace(whatcopy_search_weights={}))


def test_a_page_that_gathers_what_others_say_weighs_less_in_the_index():
    """A page listed in whatcopy_search_weights (the snippets' index, the claims, the teachers'
    page ...) has its text weighed by Pagefind as given, every other page as Pagefind weighs
    text: the page that says a thing outranks the page that lists it."""
    from whatcopy.sphinxext.site_search import SEARCH_WEIGHTS, mark_page_text

    app = SimpleNamespace(config=SimpleNamespace(whatcopy_search_weights={"claims": 0.25}))
    for page, expected in (("claims", ' data-pagefind-weight="0.25"'), ("detach", "")):
        context = {"body": "<p>text</p>"}
        mark_page_text(app, page, "page.html", context, object())
        assert context["body"] == f"<div data-pagefind-body{expected}><p>text</p></div>", page
    assert {"snippets", "claims", "teachers"} <= set(SEARCH_WEIGHTS)
    assert all(0 < weight < 1 for weight in SEARCH_WEIGHTS.values()), SEARCH_WEIGHTS


def test_every_atlas_entry_of_the_built_site_is_a_section_to_pagefind():
    """On the built atlas of each language, every entry's heading carries the entry's id (what
    Pagefind makes a section of, and the address a result lands on)."""
    import re

    anchors = set(sq.atlas_messages())
    for folder in sq.FOLDERS:
        built = (sq.HTML / folder / f"{sq.ATLAS_PAGE}.html").read_text(encoding="utf-8")
        headed = set(re.findall(r'<h[2-6] id="(err-[^"]+)"', built))
        assert headed == anchors, (
            f"{folder}/errors.html: entries without an id on their heading: {sorted(anchors - headed)}"
        )
