"""Site search: Pagefind's index of the finished pages, and the search page that queries it.

One job: what a learner types into the search box finds the page that answers it.

* After each build, Pagefind (the ``pagefind[extended]`` package: its binary, with Chinese
  segmentation) indexes the pages of the language's folder into ``<folder>/pagefind/``: only each
  page's own text (``data-pagefind-body`` on the article's content; not the header buttons, the
  sidebars, the search page or the index of terms), with the glossary's terms weighted like
  headings. Only the files the search uses are kept: its script and worker, the WebAssembly for
  the language, the entry, the index chunks and the page fragments. Beside them, CHUNKS lists
  the first and last word of each index chunk, through which the script loads every chunk
  before its first search (``index_chunks``).
* ``docs/_templates/search.html`` loads ``_static/site-search.js`` instead of Sphinx's search
  scripts and index; that script loads Pagefind when the reader searches (see its comments for
  how a query is ranked). No other page loads any of it.
* The search page's Content-Security-Policy also allows ``'wasm-unsafe-eval'`` (compiling
  WebAssembly), which lean_theme.py adds to the pages that load the search.
* The search page carries what the script needs from the build, as attributes of its results'
  element: the notices for a query that no page holds in full (translated: whatcopy.po), and
  the words a reader may use where the site writes another (docs/terms.tsv: the variants its
  Chinese pages avoid, each looked up as the site's term; and READERS_WORDS: 共享 as 共用), and
  the English of the terms with the Chinese the pages write (english_terms: view as 视图).

Pagefind's output depends only on the pages it reads: a rebuild that changes no page writes the
same bytes (tests/test_build.py checks it).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from whatcopy.sphinxext.messages import N_
from whatcopy.sphinxext.messages import _ as translated

BUNDLE = "pagefind"
# The first and last word of each of Pagefind's index chunks (index_chunks), in the bundle.
CHUNKS = "pagefind-chunks.json"
SEARCH_SCRIPT = "site-search.js"
# Pages that are not read as answers: the search page itself and Sphinx's index of terms.
NOT_INDEXED = {"search", "genindex"}
# A glossary term counts as much as a section heading (Pagefind weighs h2 headings 6, text 1).
TERM_WEIGHT = 6
GLOSSARY_TERM = re.compile(r'<dt id="term-')
# Pages that gather what the other pages say (the snippets' index, the claims' table, the
# teachers' page; less so the corrections, the cheat sheet, the glossary and the operator
# reference, which answer some queries themselves): their words count this much (Pagefind's
# weight of text is 1), so that the page that says a thing outranks the page that lists it
# (config value whatcopy_search_weights; docs/dev/decisions/0044-pages-that-gather-weigh-less-in-search.md).
SEARCH_WEIGHTS = {
    "snippets": 0.25,
    "claims": 0.25,
    "teachers": 0.25,
    "corrections": 0.5,
    "cheatsheet": 0.5,
    "glossary": 0.5,
    "operators": 0.5,
}


# Sphinx puts a labelled section's id on the <section> and the heading's own id on an empty
# <span> before the heading; Pagefind makes a section of a page (a result's sub-result, and the
# headings the search page weighs) only from a heading that carries an id itself.
HEADING_ID = re.compile(r'<span id="([^"]+)"></span><h([1-6])>')
# A section made by an extension (the error atlas's entries: <section class="atlas-entry"
# id="err-backward-twice">, its heading the message) has its id on the <section> alone: it moves
# to the heading, so that the entry is a section of the page to Pagefind, and a result can land
# on it (errors.html#err-backward-twice, the same place on the page).
SECTION_ID = re.compile(r'<section((?: class="[^"]*")?) id="([^"]+)">(\s*)<h([1-6])>')
FOLDED_INPUT = re.compile(r'(<details class="[^"]*\bhide above-input\b[^"]*")>')


# What the search page says when no page holds enough of the query (site-search.js lists the
# closest pages all the same), and before the words no page holds.
NOTICES = {
    "closest": N_(
        "No page holds all of your words together: these pages hold the most of them. Leave out "
        "or change a word to narrow the search."
    ),
    "missing": N_("Found on no page:"),
    "fewer": N_("Pages that hold fewer of your words:"),
}
HAN = re.compile(r"[\u3400-\u9fff]")
# Words Chinese sources use where the site's pages write another, which docs/terms.tsv (the
# glossary's terms) does not list: 共享内存 for the pages' 共用内存, 就地 for 原地, 两倍 for
# 翻倍 (内存翻倍); 内存泄露 for 内存泄漏, 梯度置零 for 清零, 开辟新内存 for 分配, 动态图 and
# 中间变量 (a tensor computed in the graph) for 计算图, and for 非叶子张量 and 中间张量, 克隆 for
# clone().
READERS_WORDS = {
    "共享": ["共用"],
    "就地": ["原地"],
    "原位": ["原地"],
    "两倍": ["翻倍"],
    "泄露": ["泄漏"],
    "累积": ["累加"],
    "置零": ["清零"],
    "开辟": ["分配"],
    "动态图": ["计算图"],
    "中间变量": ["非叶子张量", "中间张量"],
    "克隆": ["clone"],
    # Chinese blogs' words for the pitfalls the site calls 陷阱, and learners' word for the
    # version counter (x._version)
    "踩坑": ["陷阱"],
    "避坑": ["陷阱"],
    "版本号": ["版本计数器"],
    # the word of a question that compares (几种方法的差异), where the pages write 区别
    "差异": ["区别"],
}
# A variant listed by a context that gives it away (的克隆, 克隆有): not a word a reader types.
CONTEXT = re.compile(r"^[的个份]|[的有是]$")


def synonyms(terms: list[dict[str, str]]) -> dict[str, list[str]]:
    """The Chinese words a reader may use for a term of docs/terms.tsv, each with the site's
    word for it: the variants the Chinese pages avoid (拷贝[深拷贝,浅拷贝] is 拷贝), less those
    listed only by a context and those with Latin letters; and READERS_WORDS."""
    found: dict[str, list[str]] = {word: list(site) for word, site in READERS_WORDS.items()}
    for term in terms:
        for variant in filter(None, term["avoid"].split("|")):
            word = variant.split("[", 1)[0].strip()
            chinese = HAN.fullmatch(word[0]) and not re.search(r"[A-Za-z]", word)
            if chinese and not CONTEXT.search(word) and term["chinese"] not in found.get(word, []):
                found.setdefault(word, []).append(term["chinese"])
    return found


def english_terms(
    terms: list[dict[str, str]], printed: frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """The English of each term of docs/terms.tsv that is one Latin word (view, hook, storage),
    lower case, with the Chinese the zh pages write for it (视图, 钩子, 存储): a Chinese reader
    types the English word (view 之后修改), where the pages mostly say the Chinese one. A word of
    a term that joins words with a hyphen is listed joined (in-place of in-place operation as
    inplace: 原地操作; stop-gradient as stopgradient), and so is a term of several words whose
    Chinese has no Latin letter (leaf tensor as leaftensor: 叶子张量): the search reads a Chinese
    query's in-place or Leaf Tensor as that one word, not as in (a word of asking) and place, or
    as leaf and tensor, which the Chinese pages seldom print. A joined term that is a word the
    pages print (`printed`: deepcopy, the name of copy.deepcopy) is left out: a reader who types
    it means that name, not the term (deep copy, 深拷贝)."""
    found: dict[str, list[str]] = {}
    for term in terms:
        english, chinese = term["english"].strip().lower(), term["chinese"].strip()
        if not HAN.search(chinese) or english == chinese:
            continue
        words = [english] if re.fullmatch(r"[a-z]+", english) else []
        words += [w.replace("-", "") for w in re.findall(r"[a-z]+(?:-[a-z]+)+", english)]
        joined = re.sub(r"[- ]", "", english)  # leaf tensor: leaftensor
        several = re.fullmatch(r"[a-z]+(?:[- ][a-z]+)+", english)
        if several and not re.search(r"[A-Za-z]", chinese) and joined not in printed:
            words.append(joined)
        for word in dict.fromkeys(words):  # (stop-gradient: its word and the whole, one word)
            found.setdefault(word, []).append(chinese)
    return found


def search_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree):
    """The search page's notices, in the build's language, and the readers' words (above)."""
    if pagename != "search":
        return
    from whatcopy.sphinxext.site_languages import read_terms

    context["search_notices"] = {key: translated(text) for key, text in NOTICES.items()}
    terms = read_terms()
    context["search_synonyms"] = json.dumps(synonyms(terms), ensure_ascii=False)
    printed = frozenset(
        word.lower()
        for page in Path(app.srcdir).rglob("*.md")
        for word in re.findall(r"[A-Za-z]+", page.read_text(encoding="utf-8"))
    )
    context["search_english"] = json.dumps(english_terms(terms, printed), ensure_ascii=False)


def mark_page_text(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The page's own text is what Pagefind indexes (``data-pagefind-body``), its headings with
    their ids."""
    body = context.get("body")
    if not body or pagename in NOT_INDEXED or doctree is None:
        return
    body = GLOSSARY_TERM.sub(f'<dt data-pagefind-weight="{TERM_WEIGHT}" id="term-', body)
    body = HEADING_ID.sub(r'<h\2 id="\1">', body)
    body = SECTION_ID.sub(r'<section\1>\3<h\4 id="\2">', body)
    # the heading's "#" link is not part of its title
    body = body.replace('<a class="headerlink"', '<a data-pagefind-ignore class="headerlink"')
    # a folded program (hide-input) exists to print the table or picture below it, which is what
    # the page says; its code and its "Show code cell source" are not the page's text
    body = FOLDED_INPUT.sub(r"\1 data-pagefind-ignore>", body)
    # a claim's scope beside a sentence (for how many kinds it holds, and the kinds' names) is the
    # claims page's table in brief, not the sentence's words: indexed, its kind names ("leaf",
    # "grad", "view" ...) made the pages that cite many claims outrank the ones that answer
    body = body.replace(
        '<span class="claim-scope">', '<span data-pagefind-ignore class="claim-scope">'
    )
    weight = app.config.whatcopy_search_weights.get(pagename)
    weighted = "" if weight is None else f' data-pagefind-weight="{weight}"'
    context["body"] = f"<div data-pagefind-body{weighted}>{body}</div>"


def pagefind_binary() -> Path:
    try:
        from pagefind_bin_extended import get_executable
    except ImportError as error:  # pragma: no cover - the requirements install it
        raise ExtensionError(
            "site_search: pagefind[extended] is not installed (requirements/docs.txt)"
        ) from error
    return get_executable()


# What the search page uses of Pagefind's bundle; the rest (its own UI, other languages'
# WebAssembly) is removed.
def _kept(path: Path, wasm: str) -> bool:
    if path.parent.name in ("index", "fragment"):
        return True
    return path.name in (
        "pagefind.js",
        "pagefind-worker.js",
        "pagefind-entry.json",
        CHUNKS,
        wasm,
    ) or (path.suffix == ".pf_meta")


def index_chunks(bundle: Path) -> list[str]:
    """The first and last word of each index chunk of the bundle, from its metadata
    (`pagefind_web`'s metadata.rs: gzip, the signature `pagefind_dcd`, then CBOR: the version,
    the pages, the chunks as [from, to, hash], ...).

    The site's script loads every chunk before its first search (`pagefind.preload` of each
    word; the first alone can miss its chunk when Pagefind drops its punctuation, as of the
    Chinese sentence that starts the English index's last chunk). Pagefind finds the words that
    start with a query's word (share: shared, shares) among the chunks loaded so far, so a
    search that needs a second chunk for them scored otherwise before another search had loaded
    it (share alone: the corrections page 0.2477; after a search for squeeze, 0.3444; Pagefind
    1.5.2). With every chunk loaded, a query ranks the same whatever was searched before it
    (docs/dev/decisions/0046-every-index-chunk-before-the-first-search.md)."""
    import gzip

    import cbor2

    (meta,) = bundle.glob("*.pf_meta")
    data = gzip.decompress(meta.read_bytes())
    signature = b"pagefind_dcd"
    if not data.startswith(signature):
        raise ExtensionError(f"site_search: {meta} does not start with {signature!r}")
    chunks = cbor2.loads(data[len(signature) :])[2]
    return [word for first, last, _hash in chunks for word in (first, last)]


def build_index(app: Sphinx, exception) -> None:
    """Index the pages with Pagefind, unless the pages are byte for byte those it indexed last
    time and its bundle is still there as it wrote it (incremental.unless_unchanged; a rebuild
    that changed no page: 0.5 s less)."""
    from importlib.metadata import version

    from whatcopy.incremental import digest_of, unless_unchanged

    if exception is not None or app.builder.format != "html" or app.builder.name == "singlehtml":
        return  # the book's single page (whatcopy/site/book.py) is printed, not searched
    outdir = Path(app.outdir)
    bundle = outdir / BUNDLE
    pages = [p for p in outdir.rglob("*.html") if p.relative_to(outdir).parts[0] != BUNDLE]
    indexed = digest_of(version("pagefind_bin_extended"), pages, outdir)
    record = Path(app.doctreedir) / "site_search.json"
    unless_unchanged(record, indexed, bundle, lambda: _index(outdir, bundle))


def _index(outdir: Path, bundle: Path) -> None:
    shutil.rmtree(bundle, ignore_errors=True)
    result = subprocess.run(
        [
            str(pagefind_binary()),
            "--site",
            str(outdir),
            "--output-subdir",
            BUNDLE,
            "--keep-index-url",  # the pages are files: .../index.html, not .../
            "--silent",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode or not (bundle / "pagefind-entry.json").exists():
        raise ExtensionError(f"site_search: Pagefind failed on {outdir}:\n{result.stderr}")
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    languages = entry["languages"]
    if len(languages) != 1:
        raise ExtensionError(f"site_search: {outdir} indexed as {sorted(languages)}, not one")
    # (a language without Pagefind's stemming, such as zh-cn, uses the "unknown" one)
    wasm = f"wasm.{next(iter(languages.values()))['wasm'] or 'unknown'}.pagefind"
    for path in sorted(bundle.rglob("*"), reverse=True):
        if path.is_file() and not _kept(path, wasm):
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    chunks = {"words": index_chunks(bundle)}
    (bundle / CHUNKS).write_text(json.dumps(chunks, ensure_ascii=False), encoding="utf-8")


def no_sphinx_index(app: Sphinx) -> None:
    """Sphinx's own search index (searchindex.js) is not built: the search page queries
    Pagefind's, and nothing loads Sphinx's. Feeding it cost 2 to 3 s of every clean build of a
    language, jieba's segmentation of every Chinese page included. The search page is still
    written (Sphinx writes it where its builder searches): the builder searches, but not while
    it prepares to write, when it would make its indexer. The book's single page
    (whatcopy/site/book.py) is printed, not searched: no search page either."""
    builder = app.builder
    if builder.name == "singlehtml":
        builder.search = False
    elif builder.format == "html" and hasattr(builder, "prepare_writing"):
        prepare_writing = builder.prepare_writing

        def without_indexer(docnames) -> None:
            builder.search = False
            try:
                prepare_writing(docnames)  # sets builder.indexer to None, and makes none
            finally:
                builder.search = True

        builder.prepare_writing = without_indexer  # upstream: sphinx-search-index


def setup(app: Sphinx):
    app.add_config_value("whatcopy_search_weights", SEARCH_WEIGHTS, "html", dict)
    app.connect("builder-inited", no_sphinx_index)
    app.connect("html-page-context", mark_page_text)
    app.connect("html-page-context", search_page_context)
    # After lean_theme (900) has written the pages' final HTML.
    app.connect("build-finished", build_index, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
