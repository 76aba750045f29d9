"""The built site in a real browser: Debian's Chromium, headless, driven by Playwright.

The site is served from docs/_build/html on localhost; a request anywhere else fails a test.

The checks that visit every page (a clean load, accessibility and the switcher; the phone
width) each go through the site in one tab per test process, page after page, as a reader does:
a new tab starts a new renderer process, which cost more CPU than the page itself (measured: a
load in a new tab 1.33 CPU-seconds across Chromium's processes, a load in the same tab 0.6).
That tab's HTTP cache is off, so every page requests everything it uses again, where the
checks see it (test_the_reading_tab_fetches_each_page_in_full), and it starts each page with
empty storage.
"""

from __future__ import annotations

import collections
import functools
import itertools
import json
import re
import time
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import pytest
import search_queries as sq
from project import HTML, LANGUAGES, NOTES, ROOT, all_pages, site_sections

from whatcopy.site.browser import CHROMIUM as BROWSER
from whatcopy.site.browser import CHROMIUM_ARGS, QuietHandler, serving

pytestmark = pytest.mark.browser

CHROMIUM = Path(BROWSER)
PAGES = all_pages()


class CountingHandler(QuietHandler):
    served: ClassVar[collections.Counter] = collections.Counter()  # path -> requests answered

    def log_request(self, code="-", size="-"):
        CountingHandler.served[urlsplit(self.path).path] += 1


@pytest.fixture(scope="module")
def site_url(built_site):
    with serving(built_site.html, CountingHandler) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run `bash .ci/install-system-packages` (nox -s tests does)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        new_context = browser.new_context

        def patient_context(**options):
            context = new_context(**options)
            context.set_default_timeout(PATIENCE_MS)
            return context

        browser.new_context = patient_context
        yield browser
        browser.close()


# How long any wait of these tests may last (Playwright's own default is 30 s): a wait ends as
# soon as what it waits for happens, so this bounds a test on a machine too busy to load a page
# in 30 s, and is no measure of speed (the bench measures).
PATIENCE_MS = 180_000


# Every Content-Security-Policy violation a page causes, kept where the test can read it.
CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile || ""}:${event.lineNumber || ""})`);
});
"""


@pytest.fixture
def context(browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    context.add_init_script(CSP_WATCH)
    yield context
    context.close()


def reading_tab(context):
    """A tab to go through the site in, page after page, with the HTTP cache off."""
    tab = context.new_page()
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    return tab


@pytest.fixture(scope="module")
def reader(browser):
    """The desktop tab of this test process (module docstring)."""
    context = browser.new_context()
    context.add_init_script(CSP_WATCH)
    yield reading_tab(context)
    context.close()


class Listening:
    """Handlers on a tab's events, removed together by `stop()`: a reused tab goes on to other
    pages, whose events are not this page's."""

    def listen(self, tab, handlers: dict) -> None:
        self.tab, self.handlers = tab, handlers
        for event, handler in handlers.items():
            tab.on(event, handler)

    def stop(self) -> None:
        for event, handler in self.handlers.items():
            self.tab.remove_listener(event, handler)


class Network(Listening):
    """A tab's requests in flight, and when the last one started or ended: Playwright's own
    "networkidle" state, waited for after a long script (axe-core) has run on the page, at times
    never comes though nothing is in flight, so the tests keep this count themselves."""

    def __init__(self, tab):
        self.inflight: set = set()
        self.last = time.monotonic()
        self.listen(
            tab,
            {
                "request": self._started,
                "requestfinished": self._ended,
                "requestfailed": self._ended,
            },
        )

    def _started(self, request) -> None:
        self.inflight.add(request)
        self.last = time.monotonic()

    def _ended(self, request) -> None:
        self.inflight.discard(request)
        self.last = time.monotonic()

    def wait_until_quiet(
        self, tab, quiet_s: float = 0.5, timeout_s: float = PATIENCE_MS / 1000
    ) -> None:
        """Until nothing is in flight and nothing started or ended for `quiet_s` seconds (what
        "networkidle" means), so that late requests are seen too."""
        deadline = time.monotonic() + timeout_s
        while self.inflight or time.monotonic() - self.last < quiet_s:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"requests still open after {timeout_s} s: {[r.url for r in self.inflight]}"
                )
            tab.wait_for_timeout(50)  # lets Playwright deliver the events meanwhile


def open_page(tab, url: str) -> None:
    """Load `url` and wait for its stylesheets, scripts and web fonts: what a check of the page's
    layout, colours or print needs. (The check for requests to other hosts waits for the network
    to go quiet instead, to see late requests too.)"""
    tab.goto(url, wait_until="load")
    tab.evaluate("document.fonts.ready.then(() => true)")


def go_to(tab, url: str) -> None:
    """open_page in a reused tab, after emptying the storage the last page of the site left."""
    parts = urlsplit(url)
    if tab.url.startswith(f"{parts.scheme}://{parts.netloc}/"):
        tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    open_page(tab, url)


def url_of(site_url: str, page) -> str:
    return f"{site_url}/{LANGUAGES[page.language][0]}/{page.docname}.html"


class Problems(Listening, list):
    """What the page in a tab does wrong from now on, as it happens: script errors, console
    errors, requests to other hosts, failed responses."""

    def __init__(self, tab, site_url: str):
        super().__init__()
        self.host = urlsplit(site_url).netloc
        self.listen(
            tab,
            {
                "pageerror": lambda error: self.append(f"page error: {error}"),
                "console": self._console,
                "request": self._request,
                "response": self._response,
            },
        )

    def _console(self, message) -> None:
        if message.type == "error":
            self.append(f"console {message.type}: {message.text}")

    def _request(self, request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.host:
            self.append(f"request to another host: {request.url}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.append(f"HTTP {response.status}: {response.url}")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_page_loads_cleanly_is_accessible_and_switches_language(page, reader, site_url):
    """No script error, no request elsewhere, no CSP violation, icons shown; no serious or
    critical axe-core violation; and the language switcher can be clicked and points to the same
    page in the other language. One test, on one load of the page: a load of a long page costs a
    second."""
    tab = reader
    problems = Problems(tab, site_url)
    network = Network(tab)
    try:
        go_to(tab, url_of(site_url, page))
        # axe runs while the network goes quiet (no request for half a second), which the
        # checks below then wait for, so that they see late requests too
        serious = accessibility_problems(tab, CONTRAST_CHECKED)
        screenshot(tab, page, "desktop")
        network.wait_until_quiet(tab)
    finally:
        problems.stop()
        network.stop()
    assert tab.locator("article h1").count() == 1
    assert not problems, f"{page.rel}:\n" + "\n".join(problems)
    # The page's own Content-Security-Policy let everything it needs run.
    assert tab.evaluate("window.__cspViolations") == [], f"{page.rel}: CSP violations"
    # The (subset) icon font loaded: the theme's buttons show icons, not empty boxes.
    assert tab.evaluate("document.fonts.check('900 1em \"Font Awesome 7 Free\"')"), page.rel
    assert not serious, f"{page.rel}: accessibility:\n" + "\n".join(serious)
    # The switcher is a plain link (tests/test_site_html.py checks every page's target): here it
    # is on screen, takes the click at its centre, and leads to the same page in the other
    # language. (Following it loads a second page; test_the_language_switcher_navigates does.)
    other = next(lang for key, (_, lang) in LANGUAGES.items() if key != page.language)
    link = tab.locator(f".language-switch a[hreflang='{other}']")
    assert link.evaluate(TAKES_CLICK), f"{page.rel}: the language switcher cannot be clicked"
    assert link.evaluate("a => a.href") == switched_url(site_url, page), f"{page.rel}: switcher"


# What Playwright's click waits for before clicking, without clicking: the element has a size
# and is the one hit at its centre (nothing covers it).
TAKES_CLICK = """(a) => { const r = a.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return r.width > 0 && r.height > 0 && (hit === a || a.contains(hit)); }"""


def switched_url(site_url: str, page) -> str:
    other = next(folder for key, (folder, _) in LANGUAGES.items() if key != page.language)
    return f"{site_url}/{other}/{page.docname}.html"


def test_the_click_check_sees_a_covered_switcher(context, site_url):
    page = next(p for p in PAGES if p.docname == "index")
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    link = tab.locator(".language-switch a[hreflang]")
    assert link.evaluate(TAKES_CLICK)
    tab.evaluate(
        "() => { const d = document.createElement('div'); d.style.cssText ="
        " 'position:fixed;inset:0;z-index:9999;background:#fff'; document.body.appendChild(d); }"
    )
    assert not link.evaluate(TAKES_CLICK), "a covered link was taken as clickable"


@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if p.docname in ("index", "training")],
    ids=lambda p: p.rel,
)
def test_the_language_switcher_navigates(page, context, site_url):
    """A click on the switcher opens the same page in the other language."""
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    other = next(lang for key, (_, lang) in LANGUAGES.items() if key != page.language)
    tab.locator(f".language-switch a[hreflang='{other}']").click()
    tab.wait_for_load_state()
    assert tab.url == switched_url(site_url, page), f"{page.rel}: switcher"
    assert tab.locator("html").get_attribute("lang") == other, f"{page.rel}: switcher"


def test_the_quiet_wait_sees_a_late_request(context, site_url):
    """The clean-load test waits for the network to be quiet: a request that a finished one
    leads to, a while later, is still seen before the wait ends."""
    page = next(p for p in PAGES if p.docname == "index")
    tab = context.new_page()
    network = Network(tab)
    seen = []
    tab.on("request", lambda request: seen.append(request.url))
    open_page(tab, url_of(site_url, page))
    tab.evaluate(
        "() => fetch('index.html?first').then(() => setTimeout(() => fetch('index.html?late'), 400))"
    )
    network.wait_until_quiet(tab, quiet_s=1.0)
    assert any(url.endswith("?late") for url in seen), seen


def test_the_reading_tab_fetches_each_page_in_full(reader, site_url):
    """The tab the per-page checks share asks the server for everything a page uses on every
    visit (no HTTP cache), so each page's checks see all its requests and responses; and each
    page starts with the storage of the one before emptied."""
    page = next(p for p in PAGES if p.docname == "index")
    visits = []
    for _ in range(2):
        before = CountingHandler.served.copy()
        network = Network(reader)
        try:
            go_to(reader, url_of(site_url, page))
            network.wait_until_quiet(reader)
        finally:
            network.stop()
        visits.append(CountingHandler.served - before)
        reader.evaluate("() => localStorage.setItem('left-by', 'the page before')")
    first, second = visits
    assert len(first) >= 10 and first == second, visits
    assert all(count == 1 for count in first.values()), first
    go_to(reader, url_of(site_url, page))
    assert reader.evaluate("() => localStorage.getItem('left-by')") is None


def test_the_policy_is_enforced(context, site_url):
    """The CSP check above can fail: a script the policy does not list is refused and seen."""
    page = next(p for p in PAGES if p.docname == "index")
    tab = context.new_page()
    tab.goto(url_of(site_url, page), wait_until="networkidle")
    tab.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__ran = true'; document.head.appendChild(s); }""")
    tab.wait_for_function("window.__cspViolations.length > 0")
    assert tab.evaluate("window.__ran") is None
    assert "script-src" in tab.evaluate("window.__cspViolations")[0]


# --- The site's search (whatcopy/sphinxext/site_search.py, docs/_static/site-search.js) ---------

SEARCH_QUERIES = sq.read_queries() if sq.QUERIES.exists() and HTML.exists() else []
# Queries of the tuning half that the search does not answer, and why: each is expected to miss
# (strictly: one that starts to pass fails, so that this list stays true).
KNOWN_MISSES = {
    "If your intent is to change the metadata of a Tensor (such as sizes / strides / storage / "
    "storage_offset) without autograd tracking the change, remove the .data / .detach() call and "
    "wrap the change in a `with torch.no_grad():` block.": "advice the site never prints; the "
    "inplace page's section on set_() says it in other words",
    "How to copy PyTorch tensor using clone, detach and deepcopy": "the pages of one of the three "
    "(clone-detach, detach, clone) come before the pages that compare all three (overview, "
    "questions, cheat sheet)",
    "What will be the intuition behind using clone or torch.no_grad?": "clone-detach, the atlas's "
    "entry on a view made under no_grad and clone outrank the pages on editing a leaf under "
    "no_grad (flags, inplace, questions)",
    "item_embeddings = np.sum(final, 0) / (self.layers+1)": "a line whose names the site never "
    "prints; its error (a CUDA tensor to NumPy) is not in the query",
    "张量并行": "no page holds 并行: the query is split as 张量并 (the values page has 张量 then 并) "
    "and a lone 行, dropped, so the values page holds all that is left",
    "pytorch笔记之正确的inference": "a blog's title: 笔记 and 正确 weigh most, and the modes page, "
    "which holds inference (in inference_mode) and pytorch, holds neither",
    "Slicing behaviour in torch": "behaviour asks for an explanation and is dropped; of what is "
    "left, torch weighs nearly as much as slicing (slicing is on 18 of the 24 pages) and the "
    "values page, which prints torch most, comes before the views page",
    "running_corrects += torch.sum(preds == labels.data)": "running_corrects, preds and labels are "
    "on no page; the += makes in-place writes a term, and modes, the atlas and values outrank "
    "the pages on .data (questions, inplace)",
    "model.bert.encoder.layer[layer].output.dense.weight[:, pos] -= ori_pred_emb * lambda_list_1[i]": "a "
    "line of a learner's BERT code: the modes page (an encoder, a lambda, pos and pred in its "
    "snippets) holds more of its names than flags and questions, which explain the in-place edit "
    "of a leaf's slice",
    "Param.data.copy_详细解读": "a blog's title: 详细 and 解读 are asking words no rule drops (dropping "
    "them changed nothing), and of param, data and copy, the deepcopy page (param in its loops) "
    "ranks before values and questions, which show .data.copy_",
    "不再报错!带你彻底搞懂 PyTorch 叶子节点 (is_leaf) 的那些坑": "a blog's title: 不再 and 那些 weigh as "
    "much as 叶子节点 and is_leaf, and clone, clone-detach and modes, which hold them all, outrank "
    "flags, whose 叶子张量 scores barely more than clone's",
    "v += (1 - d) * msd[k].detach()": "a line of a learner's EMA update: msd is on no page, and of "
    "detach and in-place writes (the +=), flags, inplace and questions outrank the training "
    "page's section on an average of the weights, whose line is written otherwise",
    "q_next = self.target_net(b_s_).detach()": "a line of a learner's DQN: next, self, target and "
    "net (target_net split at its underscore, as the Chinese index splits names) weigh more than "
    "detach, and the training, questions and glossary pages hold more of them than the detach "
    "page's stop-gradient section",
    "第三章tensor的storage()那块中，如果e改为连续的,我计算的storage的id仍然和a的id一致。": "a long "
    "question about a book's exercise: 第三章, 那块 and 计算 weigh as much as storage and id, and the "
    "questions, corrections and modes pages hold more of them than the views page's section on "
    "telling whether two tensors share memory",
    "张量的stride是什么？如何理解内存布局？": "views, questions and the cheat sheet hold all four "
    "words (张量, stride, 内存, 布局) in a passage, as the glossary does; the glossary's entries on "
    "stride and the clone page's memory-format section come after them",
    ".data vs .item() vs .detach()": "data, item and detach are each on 18 to 24 pages; "
    "clone-detach, detach and flags print the three more often than the questions page's answer "
    "on .data and the values page's section on taking values out",
    "AttributeError: module 'torch' has no attribute 'no_grad'": "the site has no answer (a "
    "PyTorch older than no_grad); module, torch, has, no, attribute and no_grad are on many pages "
    "and the atlas prints AttributeError, so five pages hold enough of it to be matches",
    "points_storage = points.storage()": "storage, on 22 pages, is the one word the site holds; "
    "the views page, longer by its section on overlapping copies, scores 37.19 against the "
    "glossary's 37.24 and the index's 37.32",
    "Set nn.Parameter during training": "the training page holds set, nn, parameter and training "
    "most often and comes first; flags, which holds every word, comes fifth (thirteenth round, "
    "first run)",
    "Document the difference between `device=` vs `.to(device)`": "the flags section answers "
    "it only in part (a converted tensor is not a leaf); the atlas, values and training pages "
    "hold device and difference more often (thirteenth round, first run)",
    "a -= a[:, :1]": "no word but a; -= is looked up as an in-place edit, which the inplace, "
    "flags and questions pages hold; the views section on overlapping copies names no operator "
    "the line has (thirteenth round, first run)",
    "'NoneType' object does not support item assignment：param.grad[...] = proj_grad[start_idx"
    ":end_idx].view(grad_shape)": "the learner's code words (object, item, param, start, view) "
    "weigh more than the message's, and flags, the atlas, views, inplace and deepcopy hold more of "
    "them than the questions page's answer on a .grad that is None (thirteenth round, first run)",
    "在tensor的required_grad=False,tensor.data和tensor等价": "the learner's required_grad "
    "(for requires_grad) is looked up as required and grad; the atlas and clone-detach hold more "
    "of the words than the questions page's answer on .data (thirteenth round, first run)",
    "loss.backward() attributeerror 'float' object has no attribute 'backward'": (
        "the AttributeError of a float, held by the atlas's AttributeError entries, the "
        "training, claims and questions pages; values, whose section says item() returns a "
        "Python number, is not among the first five (fourteenth round, first run)"
    ),
    "RuntimeError when using a += b but not when doing a= a + b": (
        "a += b is looked up as an in-place edit, which every page holds; runtimeerror, not "
        "and doing leave flags, hooks and the atlas first (fourteenth round, first run)"
    ),
    "3.6_softmax-regression-scratch 中运行train_ch3函数，显示叶子节点被移动到图内部": (
        "an older wording of a message the site does not show (a leaf moved into the graph's "
        "interior); the learner's file and function names weigh most, and the operator "
        "reference and the inplace page hold most of them (fourteenth round, first run)"
    ),
    "1.clone()之后的tensor requires_grad=True,detach()之后的tensor "
    "requires_grad=False，但是梯度并不会流向clone()之后的tensor": (
        "the learner's words are on every page that compares clone() and detach(); modes, "
        "clone-detach and questions hold more of them than the clone page's sections "
        "(fourteenth round, first run)"
    ),
    'Require_grad = True, but printed as "None"': (
        "true, printed, as and none are each on 22 to 24 pages, and require_grad is read as "
        "requires_grad, on all 24: flags, deepcopy and views hold them most; the questions "
        "page's answer on a .grad that is None comes later (fifteenth round, first run)"
    ),
    "feat.requires_grad_(True)  # 重新开启梯度": (
        "the Chinese index reads requires_grad_ as requires and grad, on every page, so 重新 and "
        "开启 weigh most: modes (重新 twice), clone and the atlas hold them, flags neither "
        "(fifteenth round, first run)"
    ),
    "AttributeError: 'float' object has no attribute 'item'": (
        "a message the atlas does not show (item() called twice); the atlas, whose "
        "AttributeError entries hold every word but item in order, the claims and questions "
        "pages come before values, whose section says item() returns a Python number "
        "(sixteenth round, first run)"
    ),
    "转换后的结果不共享内存": (
        "the memory page holds 转换, 结果 and 内存 most often and comes first without 不共享; "
        "questions and the home page hold all four; devices and values, which answer, come "
        "fourth and fifth (sixteenth round, first run)"
    ),
    "a1 = x.expand(-1, 4)  # 共享内存": (
        "a1 is on no page and expand on eight; clone and values hold 共享 and 内存 most often, "
        "and the operator reference's row for expand comes third; views, which answers, is "
        "fifth (sixteenth round, first run)"
    ),
    "io = p.clone()  # inference output": (
        "io is on one page, and inference and output lift modes (inference_mode) and "
        "clone-detach before the clone page, which holds clone most but inference seldom "
        "(seventeenth round, first run)"
    ),
    "为什么要 `zero_grad()`": (
        "the Chinese index reads zero_grad as zero and grad, on 19 and 24 pages; modes, the atlas "
        "and flags hold them most, and the corrections page's section on gradients that add up "
        "is not among the first five (seventeenth round, first run)"
    ),
    "模型生成的tensor要去除求导属性，.detach()之后再用于可视化": (
        "去除 and 可视化 (read as 可, a word of asking, and 视化) are on no page; of the rest, "
        "training, questions and corrections hold 模型, 生成 and 求导 more than the detach "
        "page's section on logging (seventeenth round, first run)"
    ),
    "mse = torch.nn.functional.mse_loss(x_hat, x.detach()) #x需要detach吗？": (
        "mse, functional and loss lift the training page and the operator reference's row for "
        "mse_loss far above the detach page, which holds detach and 需要 but not the loss "
        "(seventeenth round, first run)"
    ),
    "does expand allocate memory": (
        "the operator reference's row for expand holds all three words but is fourth: its "
        "printed table, folded under the drawn one, is no longer searched twice, and memory, "
        "clone and views hold memory more often (seventeenth session, after the printed "
        "outputs left the index)"
    ),
    "with torch.no_grad(): x.set_(y)": (
        "set_ is on four pages; the atlas (its set_ entries), values and modes hold torch and "
        "no_grad more often than the inplace page's section on set_(), fourth (seventeenth "
        "session, after the printed outputs left the index)"
    ),
    "处理 'module.' 前缀": (
        "no page holds 前缀; read as 前 (a word that places, dropped) and a lone 缀, it weighs "
        "nothing, so hooks, devices and training, which hold 处理 and module, are matches "
        "(fifteenth round, first run)"
    ),
}
# Pasted messages of the tuning half whose first three results answer them but do not land on
# their atlas entry, and why (strict, as KNOWN_MISSES is).
KNOWN_ENTRY_MISSES = {
    "RuntimeError: a leaf Variable that requires grad has been used in an in-place operation.": (
        "an older wording (has been used, not is being used): the errors page comes first, "
        "boosted for the leaf entry, but its link goes to the section on a saved leaf modified "
        "in place, whose text holds more of the message's words; landing on the boosted entry "
        "instead moved another pasted message off its own"
    ),
    "RuntimeError: Can't call numpy() on Variable that requires grad. Use var.detach().numpy() "
    "instead.": (
        "an older wording (Variable, var): the errors page comes first, boosted for the numpy "
        "entry, but its link goes to the section on a saved leaf modified in place, whose text holds "
        "Variable that requires grad; landing on the boosted entry moved AddBackward0's message "
        "(tuning) off its entry, whose boosted entry is the leaf's"
    ),
}
TUNING_QUERIES = [q for q in SEARCH_QUERIES if q.half == sq.TUNING]

TOP_THREE = sq.TOP_THREE
page_of = sq.page_of


def on_search_page(tab, site_url: str, folder: str) -> None:
    """The reading tab on `folder`'s search page, with nothing searched yet (once per language
    in a row: the queries are then run on it, as the page runs the one in its address)."""
    target = f"{site_url}/{folder}/search.html"
    if tab.url != target:
        go_to(tab, target)
        tab.wait_for_function("typeof SiteSearch !== 'undefined'")


@pytest.mark.long
@pytest.mark.parametrize("folder", sq.FOLDERS)
def test_search_lists_an_answering_page_in_the_first_three(folder, reader, site_url):
    """Whatever a learner pastes or types (the tuning half of tests/search_queries.tsv, one
    language), a page that answers it is among the first three results; a query the site has no
    answer for lists nothing. The queries run one after the other on the language's search page
    (one test per language: a test per query cost twice the queries' own time); a failure names
    each query that missed by its line, and each of KNOWN_MISSES that is now answered (the list
    must stay true)."""
    mine = [q for q in TUNING_QUERIES if q.folder == folder]
    assert len(mine) >= 40, f"{sq.QUERIES.name}: {len(mine)} tuning queries in {folder}"
    problems = Problems(reader, site_url)
    try:
        outcomes = sq.run(reader, site_url, mine)
    finally:
        problems.stop()
    assert not problems, "\n".join(problems)
    wrong = sq.against_known_misses(
        outcomes,
        KNOWN_MISSES,
        key=lambda o: o.query.text,
        passed=lambda o: o.answered,
        why=lambda o: o.why(),
        name=lambda o: str(o.query),
    )
    pasted = [o for o in outcomes if o.query.kind == "error" and o.query.entries]
    assert len(pasted) >= 10, f"{sq.QUERIES.name}: {len(pasted)} pasted messages in {folder}"
    wrong += sq.against_known_misses(
        pasted,
        KNOWN_ENTRY_MISSES,
        key=lambda o: o.query.text,
        passed=lambda o: o.on_entry,
        why=lambda o: o.why_not_on_entry(),
        name=lambda o: str(o.query),
    )
    assert not wrong, "\n".join(wrong)


def test_every_known_miss_is_a_query_of_the_tuning_half():
    """KNOWN_MISSES and KNOWN_ENTRY_MISSES name queries of the tuning half by their text (a
    pasted message, for the second): an entry whose query left the file, or moved to the other
    half, would excuse nothing."""
    stale = set(KNOWN_MISSES) - {q.text for q in TUNING_QUERIES}
    assert not stale, f"KNOWN_MISSES names queries the tuning half does not hold: {stale}"
    pasted = {q.text for q in TUNING_QUERIES if q.kind == "error" and q.entries}
    stale = set(KNOWN_ENTRY_MISSES) - pasted
    assert not stale, f"KNOWN_ENTRY_MISSES names no pasted message of the tuning half: {stale}"


@pytest.mark.long
def test_the_test_half_of_the_queries_is_run_and_its_score_reported(request, reader, site_url):
    """The test half of tests/search_queries.tsv (the file's header says which) is run as the
    tuning half is, and its score goes to the test summary, unasserted: it says how the search
    does on queries it was not tuned on. What is asserted is that every query ran without a
    script error or a failed request and listed only pages of the site."""
    test_half = [q for q in SEARCH_QUERIES if q.half == sq.TEST]
    assert len(test_half) >= 80, f"{sq.QUERIES.name}: {len(test_half)} queries in the test half"
    problems = Problems(reader, site_url)
    try:
        outcomes = sq.run(reader, site_url, test_half)
    finally:
        problems.stop()
    assert not problems, "\n".join(problems)
    for outcome in outcomes:
        assert all(
            (HTML / outcome.query.folder / f"{page_of(url)}.html").exists() for url in outcome.top
        ), f"{outcome.query}: lists {outcome.top}"
    request.config.stash.setdefault(NOTES, []).append(sq.summary(outcomes, sq.TEST))


def questions_and_answers(page) -> list[tuple[str, set[str]]]:
    """Each question of a questions page, as a reader would type it (code marks dropped), and
    the pages that answer it: the questions page and the pages its answer links to."""
    where = {label: path.stem for label, (path, _) in site_sections(page.language).items()}
    found, question, answer = [], None, set()
    for line in page.text.splitlines() + ["### "]:
        if line.startswith(("### ", "## ", "(")):
            if question:
                found.append((question, {"questions"} | answer))
            question, answer = (
                (line[4:].replace("`", ""), set()) if line.startswith("### ") else (None, set())
            )
            continue
        for label in re.findall(r"<([\w-]+)>`|\{ref\}`([\w-]+)`", line):
            answer |= {where[name] for name in label if name in where}
        answer |= set(re.findall(r"\]\(([\w-]+)\.md", line))
    return found


QUESTION_PAGES = [p for p in PAGES if p.docname == "questions"]


# A query's first three results' addresses, and the section each links to first (site-search.js's
# describe()), by page: the section that answers.
FIRST_SECTIONS = """async (query) => {
  const outcome = await SiteSearch.rank(query);
  const top = [];
  const sections = {};
  for (const page of outcome.ranked.slice(0, 3)) {
    const shown = await SiteSearch.describe(page, query);
    top.push(shown.url);
    sections[shown.url.split("/").pop().split("#")[0]] = shown.sections[0]?.title ?? null;
  }
  return [top, sections];
}"""


def same_heading(a: str | None, b: str) -> bool:
    """Two headings, the same but for code marks, quotes, spaces and case."""

    def plain(text: str | None) -> str:
        return re.sub(r"[`\s\"'“”‘’]", "", text or "").casefold()

    return plain(a) == plain(b)


@pytest.mark.parametrize("page", QUESTION_PAGES, ids=lambda p: p.rel)
def test_typing_a_question_of_the_questions_page_finds_it(page, reader, site_url):
    """Each question, typed into the search box word for word, lists among the first three
    results the questions page or a page its answer links to; where the questions page is
    listed, the section it links to is that question (not the section with the most matches)."""
    folder = LANGUAGES[page.language][0]
    on_search_page(reader, site_url, folder)
    asked = questions_and_answers(page)
    assert len(asked) >= 20, f"{page.rel} has {len(asked)} questions"
    misses = []
    for question, answers in asked:
        top, sections = reader.evaluate(FIRST_SECTIONS, question)
        if not {page_of(url) for url in top} & answers:
            misses.append(
                f"{question!r}: the first three are {[page_of(url) for url in top]}, "
                f"none of {sorted(answers)}"
            )
        section = sections.get("questions.html", question)
        if not same_heading(section, question):
            misses.append(f"{question!r}: the questions page's result links to {section!r}")
    assert not misses, f"{page.rel}: searching a question does not list its page:\n" + "\n".join(
        misses
    )


# The core words of the Chinese pages, and the word the pages write for each (共享: 共用).
CORE_WORDS = {
    "张量": "张量",
    "显存": "显存",
    "梯度": "梯度",
    "视图": "视图",
    "原张量": "原张量",
    "共享": "共用",
    "内存": "内存",
    "原地": "原地",
    "副本": "副本",
}


@pytest.mark.parametrize("word", CORE_WORDS)
def test_a_chinese_core_word_typed_alone_finds_its_pages(word, reader, site_url):
    """Each core word of the Chinese pages, typed alone, lists matches, and the first three hold
    it (or the site's word for it): Pagefind is not left to split it with the browser's
    segmenter, which splits 张量 into 张 and 量."""
    on_search_page(reader, site_url, "zh-cn")
    listed, matched, top = reader.evaluate(TOP_THREE, word)
    assert listed and matched and top, f"{word}: lists {listed} pages, matches: {matched}"
    for url in top:
        text = (HTML / "zh-cn" / f"{page_of(url)}.html").read_text(encoding="utf-8")
        assert CORE_WORDS[word] in text, f"{word}: {page_of(url)} does not hold {CORE_WORDS[word]}"


def test_a_chinese_term_the_index_splits_ranks_its_pages_by_their_scores(reader, site_url):
    """深拷贝, which the Chinese index holds as two words (深, 拷贝), is looked up as those words in a
    row; Pagefind scores every page of such a phrase the same, so the search scores them by the
    words (site-search.js, inRow): the deepcopy page, which says it most, comes first, not the
    page that comes first by its id."""
    on_search_page(reader, site_url, "zh-cn")
    listed, matched, top = reader.evaluate(TOP_THREE, "深拷贝")
    assert matched and top, f"深拷贝: lists {listed} pages, matches: {matched}"
    assert page_of(top[0]) == "deepcopy", f"深拷贝: the first three are {top}"


# Each page's score for a query, as the search ranks them (site-search.js, rank).
SCORES = """async (query) => (await SiteSearch.rank(query)).ranked.map((p) => [p.id, p.rank])"""


def test_a_query_ranks_the_same_whatever_was_searched_before(context, site_url):
    """Pagefind finds the words that start with a query's word (share: shared, shares) only in
    the index chunks loaded so far, so a query scored otherwise after another search had loaded
    more of them; the search loads every chunk before its first query (site_search.py,
    index_chunks). Shown failing with the list of chunks emptied, as before."""

    loaded = set()

    def scores(*queries: str, chunks: list | None = None) -> list:
        tab = context.new_page()
        tab.on(
            "request",
            lambda r: loaded.add(r.url.rsplit("/", 1)[1]) if ".pf_index" in r.url else None,
        )
        if chunks is not None:
            tab.route(
                "**/pagefind-chunks.json", lambda route: route.fulfill(json={"words": chunks})
            )
        go_to(tab, f"{site_url}/en/search.html")
        tab.wait_for_function("typeof SiteSearch !== 'undefined'")
        for query in queries[:-1]:
            tab.evaluate(SCORES, query)
        try:
            return tab.evaluate(SCORES, queries[-1])
        finally:
            tab.close()

    pairs = chunk_crossings()
    assert pairs, "no index chunk ends with a word that starts the next one's first: see below"
    scores(pairs[0][0])  # a first search, which loads every chunk
    chunks = {path.name for path in (sq.HTML / "en/pagefind/index").glob("*.pf_index")}
    assert loaded == chunks, f"index chunks not loaded by the first search: {chunks - loaded}"
    # The seeded fault first, to find a query whose ranking an earlier search would change: one
    # whose word is the last of an index chunk while its longer forms start the next chunk
    # (which words those are moves as the pages change, so the first of those that does).
    for query, earlier in pairs:
        if scores(query, chunks=[]) != scores(earlier, query, chunks=[]):
            break
    else:
        raise AssertionError(
            f"without the chunks loaded first, no earlier search changes the ranking of any of "
            f"{pairs}: the check shows nothing"
        )
    assert scores(query) == scores(earlier, query), (
        f"the ranking of {query!r} depends on an earlier search ({earlier!r})"
    )


def chunk_crossings() -> list[tuple[str, str]]:
    """Queries whose longer forms are in the next index chunk, each with an earlier search that
    loads that chunk: (the last word of a chunk, the last word of the next one) wherever the
    next chunk's first word starts with the chunk's last (`requir`, then `require` ...), from
    the English index's list of chunks (site_search.py, index_chunks: first and last words)."""
    words = json.loads((sq.HTML / "en/pagefind/pagefind-chunks.json").read_text())["words"]
    ranges = list(zip(words[::2], words[1::2]))
    return [
        (last, after)
        for (_, last), (first, after) in itertools.pairwise(ranges)
        if first.startswith(last) and last.isalpha() and len(last) > 3
    ]


@pytest.mark.parametrize(
    "folder, query, missing, notice",
    [
        (
            "en",
            "numpy array frobnicated",
            "frobnicated",
            "No page holds all of your words together",
        ),
        (
            "zh-cn",
            "numpy 数组 frobnicated",
            "frobnicated",
            "没有哪一页在一处同时包含你输入的全部词语",
        ),
    ],
)
def test_a_query_no_page_holds_lists_the_closest_pages_and_says_so(
    folder, query, missing, notice, reader, site_url
):
    """A query with a word no page holds (a pasted message's, a learner's own) still lists the
    pages that hold the rest, under a notice in the page's language that names the missing
    word, instead of an empty page."""
    go_to(reader, f"{site_url}/{folder}/search.html?q={query}")
    reader.wait_for_function(
        "() => document.querySelectorAll('#search-results ul.search > li').length > 0",
        timeout=PATIENCE_MS,
    )
    summary = reader.locator(".search-summary.search-closest").inner_text()
    assert summary.startswith(notice), summary
    assert missing in reader.locator(".search-missing").inner_text()
    first = reader.locator("#search-results ul.search > li a:first-child").first
    assert page_of(first.get_attribute("href")) in {"values", "devices", "detach", "inplace"}


@pytest.mark.parametrize(
    "folder, query, notice",
    [
        ("zh-cn", "显存不够", "包含你输入的词语较少的页面"),
        ("en", "detach vs clone", None),
    ],
)
def test_one_or_two_matches_are_followed_by_the_closest_pages_under_a_notice(
    folder, query, notice, reader, site_url
):
    """A query that one or two pages match (a word one page holds by chance weighs most of it:
    不够) lists those, then the closest other pages under a notice in the page's language; the
    summary counts the matches alone. A query with three matches or more has no such notice."""
    go_to(reader, f"{site_url}/{folder}/search.html?q={query}")
    reader.wait_for_function(
        "() => document.querySelectorAll('#search-results ul.search > li').length > 0"
        " && !document.querySelector('.search-summary').textContent.endsWith('…')",
        timeout=PATIENCE_MS,
    )
    items = reader.locator("#search-results ul.search > li")
    fewer = reader.locator("#search-results li.search-fewer")
    if notice is None:
        assert fewer.count() == 0
        return
    assert fewer.count() == 1 and fewer.inner_text().startswith(notice), fewer.all_inner_texts()
    texts = items.all_inner_texts()
    at = texts.index(fewer.inner_text())
    assert 1 <= at < 3 and len(texts) > at + 1, texts
    assert str(at) in reader.locator(".search-summary").inner_text()


def test_the_search_queries_cover_every_kind_in_both_languages():
    """At least 40 queries per language, of every kind, with pages that answer them."""
    for folder, _ in LANGUAGES.values():
        mine = [q for q in SEARCH_QUERIES if q.folder == folder]
        assert len(mine) >= 40, f"{sq.QUERIES.name}: {len(mine)} queries for {folder}"
        assert {q.kind for q in mine} == sq.QUERY_KINDS, f"{sq.QUERIES.name}: kinds for {folder}"


def test_the_reference_is_searched_by_operator_in_both_languages():
    """At least ten "does X copy" queries per language land on an operator's row."""
    for folder, _ in LANGUAGES.values():
        named = {row for q in SEARCH_QUERIES if q.folder == folder for row in q.rows}
        assert len(named) >= 10, f"{sq.QUERIES.name}: {len(named)} operator rows for {folder}"


def test_a_malformed_query_line_is_named(tmp_path):
    bad = tmp_path / "queries.tsv"
    bad.write_text(
        "language\tkind\tquery\tanswers\tsource\n"
        "en\tquestion\tdoes clone copy grad\tnot-a-page\tnowhere\n",
        encoding="utf-8",
    )
    with pytest.raises(AssertionError, match=r"queries\.tsv:2: no page not-a-page"):
        sq.read_queries(bad)


# The search page's chrome that must not stand in for a result's context.
HEADER_WORDS = ["Binder", "Colab", ".ipynb", "简体中文", "English", "Ctrl"]


@pytest.mark.parametrize(
    "folder, query, answer",
    [
        ("en", "x.data vs x.detach()", "questions"),
        ("zh-cn", "共用内存", "index"),
        ("en", "does permute copy", "operators#op-permute"),
        ("zh-cn", "x.diagonal() 会复制吗", "operators#op-diagonal"),
    ],
)
def test_the_search_page_shows_results_with_the_pages_own_text(
    folder, query, answer, reader, site_url
):
    """The search page run as a reader runs it (?q= in its address): results listed, each with
    context from the page's own text, the query's words marked, under the page's
    Content-Security-Policy, requesting nothing from another host. A result for an operator's
    row of the reference links to the row and shows the row's own text, from its name on."""
    problems = Problems(reader, site_url)
    try:
        go_to(reader, f"{site_url}/{folder}/search.html?q={query}")
        reader.wait_for_function(
            "() => document.querySelectorAll('#search-results ul.search > li').length > 0"
            " && !document.querySelector('.search-summary').textContent.endsWith('…')",
            timeout=PATIENCE_MS,
        )
    finally:
        problems.stop()
    assert not problems, "\n".join(problems)
    assert reader.evaluate("window.__cspViolations") == [], f"{folder}: CSP violations"
    assert reader.locator(".bd-search-container input[name=q]").input_value() == query
    items = reader.locator("#search-results ul.search > li")
    first = items.locator("a:first-child").evaluate_all("links => links.map(a => a.href)")
    page, _, row = answer.partition("#")
    assert page in [page_of(url) for url in first[:3]], first
    if row:
        item = items.nth([page_of(url) for url in first].index(page))
        assert urlsplit(item.locator("a:first-child").get_attribute("href")).fragment == row
        section = item.locator("a.search-section").first
        assert urlsplit(section.get_attribute("href")).fragment == row
        name = row.removeprefix("op-")
        context = item.locator("p.context")
        assert context.inner_text().startswith(name), context.inner_text()
        assert context.locator("mark").first.inner_text() == name
    contexts = items.locator("p.context").all_inner_texts()
    assert contexts and all(contexts), contexts
    for context in contexts:
        assert not any(word in context for word in HEADER_WORDS), context
    assert items.locator("p.context mark").count() > 0


@pytest.mark.parametrize("page", [p for p in PAGES if p.docname == "index"], ids=lambda p: p.rel)
def test_a_desktop_page_shows_one_search_field(page, reader, site_url):
    """One search field on a desktop screen (the header's), not a second one in the sidebar."""
    go_to(reader, url_of(site_url, page))
    shown = reader.evaluate(
        """() => [...document.querySelectorAll('.search-button-field, .search-button')]
             .filter((e) => e.getClientRects().length > 0).map((e) => e.parentElement.className)"""
    )
    assert len(shown) == 1, f"{page.rel}: search fields shown: {shown}"


def test_no_page_but_the_search_page_loads_the_search(reader, site_url):
    """The first view of a page loads nothing of the search: its code and index load on the
    search page only, when a query is run there."""
    loaded = []
    watch = lambda request: loaded.append(request.url)
    reader.on("request", watch)
    network = Network(reader)
    try:
        for folder, _ in LANGUAGES.values():
            go_to(reader, f"{site_url}/{folder}/index.html")
            network.wait_until_quiet(reader)
    finally:
        reader.remove_listener("request", watch)
        network.stop()
    assert loaded and not [u for u in loaded if "pagefind" in u or "site-search" in u], loaded


def test_copy_button_copies_the_code_and_nothing_else(context, site_url):
    # the first page whose first cell shows its code (a folded cell has no button to hover)
    page = next(
        p
        for p in PAGES
        if p.language == "en" and p.cells() and "hide-input" not in p.cells()[0].tags
    )
    cell = page.cells()[0]
    tab = context.new_page()
    tab.goto(url_of(site_url, page))
    first_cell = tab.locator("div.cell").first
    first_cell.locator(".cell_input").hover()
    first_cell.locator(".cell_input button.copybtn").click()
    copied = tab.evaluate("navigator.clipboard.readText()")
    snippet = (page.path.parent / cell.load).resolve().read_text(encoding="utf-8")
    assert copied.strip() == snippet.strip()
    output = first_cell.locator(".cell_output").inner_text().strip().splitlines()[0]
    assert output not in copied


ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


FIRST_SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", FIRST_SCREENS, ids=str)
@pytest.mark.parametrize("page", [p for p in PAGES if p.docname == "index"], ids=lambda p: p.rel)
def test_the_home_page_shows_its_table_on_the_first_screen(page, screen, browser, site_url):
    """The answer first: on a desktop and on a phone, the table of what each operation copies is
    on the first screen, its header and first row whole, before any scrolling."""
    phone = screen == "phone"
    context = browser.new_context(viewport=FIRST_SCREENS[screen], is_mobile=phone, has_touch=phone)
    try:
        tab = context.new_page()
        open_page(tab, url_of(site_url, page))
        placed = tab.evaluate(
            """() => {
                 const table = document.querySelector('#home-table table');
                 if (!table) return null;
                 const rows = table.querySelectorAll('tr');
                 return {top: table.getBoundingClientRect().top,
                         firstRowBottom: rows[1].getBoundingClientRect().bottom,
                         height: window.innerHeight, scrolled: window.scrollY};
               }"""
        )
        screenshot(tab, page, f"first-screen-{screen}")
    finally:
        context.close()
    assert placed, f"{page.rel}: no table in the section #home-table"
    assert placed["scrolled"] == 0 and placed["top"] >= 0, placed
    assert placed["firstRowBottom"] <= placed["height"], (
        f"{page.rel} at {screen} size: the table's first row ends at "
        f"{placed['firstRowBottom']:.0f}px, below the first screen ({placed['height']}px)"
    )


def screenshot(tab, page, kind: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"{page.language}-{page.docname.replace('/', '_')}-{kind}.png"
    # The first screen of the page: a whole long page takes seconds to capture.
    tab.screenshot(path=str(ARTIFACTS / name))


# A phone: 390 CSS px wide (an iPhone 12 to 15), one device pixel per CSS pixel, touch and the
# mobile viewport's handling.
PHONE = {"width": 390, "height": 844}

# What sticks out of the page at the tab's width, measured in the page: the document's
# scrollWidth, and the element reaching furthest right that is not clipped by a box that
# scrolls or hides its overflow (a table in its scroll box is inside the page), named by tag,
# class and the start of its text. Of an element and its descendants reaching as far, the
# outermost is named: the one that does not fit its parent.
WIDEST = """(limit) => {
  const scrollWidth = document.documentElement.scrollWidth;
  // a page that fits needs no culprit (looking for one costs a long page a tenth of a second)
  if (scrollWidth <= limit) return {scrollWidth, widest: null};
  // How far right `right` (of an element or text) shows, clipped by the boxes from `up` on
  // that scroll or hide their overflow; -Infinity inside a fixed box (out of the page's flow).
  const shown = (right, up) => {
    for (; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.position === 'fixed') return -Infinity;
      if (style.overflowX !== 'visible') right = Math.min(right, up.getBoundingClientRect().right);
    }
    return right;
  };
  const reach = (element) => getComputedStyle(element).position === 'fixed' ? -Infinity
    : shown(element.getBoundingClientRect().right, element.parentElement);
  const describe = (element, right) => ({
    right: Math.round(right), tag: element.tagName.toLowerCase(),
    classes: element.getAttribute('class') || '',
    text: (element.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60)});
  let widest = null;
  const consider = (element, right) => {
    if (!widest || right > widest.right + 0.5) widest = describe(element, right);
  };
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= limit + 0.5) continue;  // (most elements: quick)
    const right = reach(element);
    if (right <= limit + 0.5) continue;
    // of an element and its descendants reaching as far, the one that does not fit its parent
    const parent = element.parentElement;
    if (parent && parent !== document.body && reach(parent) >= right - 0.5) continue;
    consider(element, right);
  }
  // text that does not fit the element it is in (a long word), named by that element
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    range.selectNodeContents(text);
    const right = range.getBoundingClientRect().right;
    if (right <= limit + 0.5) continue;
    const parent = text.parentElement;
    const clipped = shown(right, parent);
    if (clipped > limit + 0.5 && clipped > reach(parent) + 0.5) consider(parent, clipped);
  }
  return {scrollWidth, widest};
}"""


def too_wide(tab, label: str) -> str | None:
    """Why the page in `tab` is wider than the tab (None when it fits), naming `label` and the
    element that sticks out furthest."""
    width = tab.viewport_size["width"]
    found = tab.evaluate(WIDEST, width)
    if found["scrollWidth"] <= width:
        return None
    widest = found["widest"]
    culprit = (
        f"<{widest['tag']} class={widest['classes']!r}> reaching {widest['right']}px: "
        f"{widest['text']!r}"
        if widest
        else "no element found (a pseudo-element or a margin?)"
    )
    return f"{label}: {found['scrollWidth']}px wide on a {width}px phone; widest: {culprit}"


@pytest.fixture(scope="module")
def phone(browser):
    """A phone's screen (PHONE, one device pixel per CSS pixel), touch and mobile viewport
    handling: the phone's tab of this test process, reused page after page (module docstring)."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    yield reading_tab(context)
    context.close()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_every_page_fits_a_phone(page, phone, site_url):
    """No page pans sideways on a 390px phone: the document is no wider than the screen (its
    scrollWidth; with the mobile viewport, window.innerWidth grows with a page too wide, so it
    is no measure), and nothing of the article header is pushed off the screen."""
    tab = phone
    go_to(tab, url_of(site_url, page))
    clipped = tab.evaluate(
        """() => [...document.querySelectorAll('.article-header-buttons > *')]
             .filter((e) => e.getBoundingClientRect().width > 0
                            && e.getBoundingClientRect().right > window.innerWidth + 0.5)
             .map((e) => e.className)"""
    )
    screenshot(tab, page, "phone")
    problem = too_wide(tab, page.rel)
    assert problem is None, problem
    assert not clipped, f"{page.rel}: off the screen at phone width: {clipped}"


@pytest.mark.parametrize("folder", [folder for folder, _ in LANGUAGES.values()], ids=str)
def test_the_search_page_fits_a_phone_and_its_text_clears_the_icon(folder, phone, site_url):
    """The search page with its results fits the phone too, and what is typed in its field
    starts right of the magnifier icon drawn over the field."""
    tab = phone
    go_to(tab, f"{site_url}/{folder}/search.html?q=detach")
    tab.wait_for_function(
        "() => document.querySelectorAll('#search-results ul.search > li').length > 0"
        " && !document.querySelector('.search-summary').textContent.endsWith('…')",
        timeout=PATIENCE_MS,
    )
    problem = too_wide(tab, f"{folder}/search.html?q=detach")
    assert problem is None, problem
    icon_right, text_left = tab.evaluate(
        """() => { const form = document.querySelector('.bd-search-container form.bd-search');
                   const icon = form.querySelector('.fa-magnifying-glass');
                   const input = form.querySelector('input');
                   return [icon.getBoundingClientRect().right,
                           input.getBoundingClientRect().left
                           + parseFloat(getComputedStyle(input).paddingLeft)]; }"""
    )
    assert text_left >= icon_right + 2, (
        f"{folder}/search.html: the query's text starts at {text_left:.0f}px, under the "
        f"magnifier icon (it ends at {icon_right:.0f}px)"
    )


def test_the_phone_check_names_what_sticks_out(phone, site_url):
    """The check fails on a page made too wide, naming the element, and not on one whose wide
    element scrolls inside its own box."""
    page = next(p for p in PAGES if p.docname == "index" and p.language == "en")
    tab = phone
    go_to(tab, url_of(site_url, page))
    assert too_wide(tab, page.rel) is None
    tab.evaluate(
        """() => { const box = document.createElement('div');
                   box.style.overflowX = 'auto';
                   box.innerHTML = '<pre class="planted-inside" style="width: 700px">boxed</pre>';
                   document.querySelector('article').append(box); }"""
    )
    assert too_wide(tab, page.rel) is None
    tab.evaluate(
        """() => { const wide = document.createElement('div');
                   wide.className = 'planted';
                   wide.style.width = '600px';
                   wide.textContent = 'UserWarning: ' + 'x'.repeat(80);
                   document.querySelector('article').append(wide); }"""
    )
    problem = too_wide(tab, page.rel)
    assert problem and "<div class='planted'>" in problem and "'UserWarning: xxx" in problem, (
        problem
    )


def luminance(css_color: str) -> float:
    import re

    red, green, blue = (int(v) for v in re.findall(r"\d+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(tab, selector: str, colour: str, against: str) -> float:
    """Difference in luminance between two computed colours of the first element matching."""
    values = tab.evaluate(
        """([selector, colour, against]) => {
          const element = document.querySelector(selector);
          if (!element) return null;
          const style = getComputedStyle(element);
          let back = element, background = getComputedStyle(back)[against];
          while (against === "backgroundColor" && back && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background)) {
            back = back.parentElement;
            background = back ? getComputedStyle(back).backgroundColor : "rgb(255, 255, 255)";
          }
          return [style[colour], background];
        }""",
        [selector, colour, against],
    )
    assert values is not None, f"no {selector} on the page"
    return abs(luminance(values[0]) - luminance(values[1]))


DIAGRAM_PAGE = next(
    (
        p
        for p in PAGES
        if p.language == "en"
        and any(any("diagram" in tag for tag in c.options.get("tags", [])) for c in p.cells())
    ),
    None,
)


@pytest.mark.parametrize("page", [p for p in PAGES if p.docname == "index"], ids=lambda p: p.rel)
def test_dark_mode_follows_the_system_and_the_toggle(page, browser, site_url):
    context = browser.new_context(color_scheme="dark")
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    background = lambda: tab.evaluate("getComputedStyle(document.body).backgroundColor")
    text = lambda: tab.evaluate("getComputedStyle(document.body).color")
    assert luminance(background()) < 80 < luminance(text()), (background(), text())
    assert tab.evaluate("document.documentElement.dataset.theme") == "dark"
    screenshot(tab, page, "dark")
    # The theme switcher offers light, dark and the system's; choosing light turns the page light.
    seen = set()
    for mode in ("light", "dark", "auto"):
        tab.locator(".article-header-buttons .theme-switch-button").click()
        tab.locator(f".theme-change-button[data-mode='{mode}']").click()
        seen.add((mode, tab.evaluate("document.documentElement.dataset.theme")))
        if mode == "light":
            assert luminance(background()) > 200, (mode, background())
        if mode in ("dark", "auto"):
            assert luminance(background()) < 80, (mode, background())
    assert seen == {("light", "light"), ("dark", "dark"), ("auto", "dark")}, seen
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page", [p for p in [DIAGRAM_PAGE] if p], ids=lambda p: p.rel)
def test_outputs_and_diagrams_are_readable_in_both_modes(page, scheme, browser, site_url):
    context = browser.new_context(color_scheme=scheme)
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    assert tab.evaluate("document.documentElement.dataset.theme") == scheme
    assert contrast(tab, ".cell_output pre", "color", "backgroundColor") > 100
    assert contrast(tab, ".output-diagram text", "fill", "backgroundColor") > 100
    # The boxes are drawn in the page's colours, so their labels stay readable on them.
    labels, boxes = tab.evaluate("""() => [
        getComputedStyle(document.querySelector('.output-diagram text')).fill,
        getComputedStyle(document.querySelector('.output-diagram rect')).fill]""")
    assert abs(luminance(labels) - luminance(boxes)) > 100, (scheme, labels, boxes)
    # Code written without the spans of names, punctuation and spaces (lean_code.py) draws them
    # in the colour those spans had: the code style's text colour, the block's own.
    drawn = tab.evaluate("""() => [...document.querySelectorAll('.highlight.lean-code')].map(
        (block) => [getComputedStyle(block.querySelector('pre')).color,
                    getComputedStyle(block).color])""")
    assert drawn and all(text == block for text, block in drawn), (scheme, drawn)
    context.close()


@pytest.mark.parametrize(
    "page", [p for p in PAGES if p.docname in ("index", "detach")], ids=lambda p: p.rel
)
def test_printing_gives_a_handout_without_navigation(page, browser, site_url):
    context = browser.new_context()
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    tab.emulate_media(media="print")
    visible = lambda selector: tab.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].some((e) => {
             const box = e.getBoundingClientRect(); const style = getComputedStyle(e);
             return box.width > 0 && box.height > 0 && style.visibility !== "hidden"; })""",
        selector,
    )
    for navigation in (
        ".bd-sidebar-primary",
        ".bd-sidebar-secondary",
        ".bd-header-article",
        ".language-switch",
        ".prev-next-footer",
        "button.copybtn",
        # the screen's folds: the printed text under a drawn table, folded code and its label
        "details.printed-output",
        "div.cell details.hide summary",
    ):
        assert not visible(navigation), f"{page.rel}: {navigation} is printed"
    assert visible("h1"), f"{page.rel}: no title printed"
    if page.cells():
        assert visible(".cell_output"), f"{page.rel}: outputs not printed"
        shown = "div.cell:not(.tag_hide-input) .cell_input"  # code not folded on the page
        assert not tab.locator(shown).count() or visible(shown), f"{page.rel}: code not printed"
        assert visible(".snippet-meta"), f"{page.rel}: provenance not printed"
    if tab.locator(".output-diagram").count():
        assert visible(".output-diagram"), f"{page.rel}: diagram not printed"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.pdf(path=str(ARTIFACTS / f"{page.language}-{page.docname}-print.pdf"))
    context.close()


def test_full_screen_and_print_buttons_work(context, site_url):
    page = next(p for p in PAGES if p.language == "en" and p.cells())
    tab = context.new_page()
    problems = Problems(tab, site_url)
    open_page(tab, url_of(site_url, page))
    tab.locator(".article-header-buttons .btn-fullscreen-button").click()
    tab.wait_for_function("document.fullscreenElement !== null", timeout=PATIENCE_MS)
    tab.locator(".article-header-buttons .btn-fullscreen-button").click()
    tab.wait_for_function("document.fullscreenElement === null", timeout=PATIENCE_MS)
    tab.evaluate("window.print = () => { window.__printed = true; }")
    tab.locator(".dropdown-download-buttons > button").click()
    tab.locator(".dropdown-download-buttons .btn-download-pdf-button").click()
    assert tab.evaluate("window.__printed") is True
    assert not problems, "\n".join(problems)


@functools.cache
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


# The elements whose text contrast is still to be checked in this run: for each combination of
# what decides it (the text's colour, size, weight and shadow, the opacity of the text and of
# every ancestor, and the backgrounds behind it up to the first opaque one), the first shown
# element that has it. axe's colour-contrast rule takes seconds on a long page of highlighted
# code, though its thousands of elements come in a few dozen such combinations site-wide.
PICK_FOR_CONTRAST = r"""
(seen) => {
  const opaque = (colour) => /^rgb\(/.test(colour) || /^rgba\(.*,\s*1\)$/.test(colour);
  // What an element and its ancestors add to the signature of the text inside it: each one's
  // opacity, blending and filter, and, up to the first opaque one, its background (`behind`:
  // no opaque background below it yet). Kept per element, for the many texts that share it.
  const kept = [new Map(), new Map()];
  const upward = (e, behind) => {
    if (!e) return "";
    const cache = kept[behind ? 1 : 0];
    let text = cache.get(e);
    if (text === undefined) {
      const s = getComputedStyle(e);
      const parts = [s.opacity, s.mixBlendMode, s.filter];
      let next = behind;
      if (behind) {
        parts.push(s.backgroundColor, s.backgroundImage);
        if (opaque(s.backgroundColor) || s.backgroundImage !== "none") next = false;
      }
      text = parts.join("|") + "|" + upward(e.parentElement, next);
      cache.set(e, text);
    }
    return text;
  };
  const signature = (element) => {
    const style = getComputedStyle(element);
    return [style.color, style.fontSize, style.fontWeight, style.textShadow].join("|") + "|" +
      upward(element, true);
  };
  const shown = (element) => {
    const style = getComputedStyle(element);
    return element.getClientRects().length > 0 && style.visibility !== "hidden";
  };
  const known = new Set(seen), picked = [], fresh = [];
  for (const element of document.body.querySelectorAll("*")) {
    const text = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text || !shown(element)) continue;
    const key = signature(element);
    if (known.has(key)) continue;
    known.add(key);
    fresh.push(key);
    picked.push(element);
  }
  window.__contrastElements = picked;
  return fresh;
}
"""
# the combinations already checked, by this test process (each pytest-xdist worker has its own)
CONTRAST_CHECKED: set[str] = set()


def accessibility_problems(tab, checked: set[str]) -> list[str]:
    """The serious and critical axe-core violations of the page in `tab`: every rule over the
    whole page, but colour contrast only over the combinations not in `checked`, which it adds.

    axe-core is evaluated through the browser's debugging protocol, which the page's own
    Content-Security-Policy does not govern (a <script> element added to the page would be
    refused, as it should be), so this runs on the page as served, policy included."""
    tab.evaluate(axe_source() + "\n;0")
    # Only violations are read: axe then skips collecting the nodes that pass (a third faster).
    # Rules that can only report minor or moderate violations are not run (a quarter faster):
    # test_the_rules_left_out_report_only_minor_or_moderate.
    rules = skipped_rules(tab)
    fresh = tab.evaluate(PICK_FOR_CONTRAST, sorted(checked))
    if fresh:
        # Colour contrast runs in the same pass as the other rules, on the picked elements
        # only: the map of every element's box that it, target-size and link-in-text-block
        # need is then made once per page, not twice (a fifth of axe's time on the site).
        tab.evaluate(CONTRAST_ON_PICKED)
        del rules["color-contrast"]
    violations = tab.evaluate(AXE_RUN, rules)["violations"]
    checked.update(fresh)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s), e.g. "
        f"{v['nodes'][0]['target']}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


AXE_RUN = "async (rules) => await axe.run(document, {resultTypes: ['violations'], rules})"
# axe's colour-contrast rule told, through axe.configure, to check only the elements
# PICK_FOR_CONTRAST picked (those its own test of an element, which this keeps, takes), without
# marking them in the page: the rule is found as skipped_rules finds the rules' impacts
CONTRAST_ON_PICKED = """() => {
  const rule = axe._audit.rules.find((r) => r.id === 'color-contrast');
  const own = rule.matches, picked = new Set(window.__contrastElements);
  const matches = (...args) => picked.has(args[0]) && own.apply(rule, args);
  axe.configure({rules: [{id: 'color-contrast', matches}]});
}"""


def skipped_rules(tab) -> dict:
    """axe's options that turn off colour contrast (accessibility_problems turns it on for the
    elements it picks) and the rules whose own impact is minor or moderate: axe reports every
    violation of a rule that has an impact at that impact, so these can never fail the check."""
    weak = tab.evaluate(
        "() => axe._audit.rules.filter((r) => ['minor', 'moderate'].includes(r.impact))"
        ".map((r) => r.id)"
    )
    return {rule: {"enabled": False} for rule in ["color-contrast", *weak]}


def test_the_rules_left_out_report_only_minor_or_moderate(context, site_url):
    """All of axe's rules and the rules the check runs find the same serious and critical
    violations, on a page made to break rules of every impact; what only the full run finds
    is minor or moderate."""
    page = next(p for p in PAGES if p.docname == "index")
    tab = context.new_page()
    open_page(tab, url_of(site_url, page))
    tab.evaluate(
        """() => { const a = document.querySelector('article');
        a.insertAdjacentHTML('beforeend', '<img src="x.png"><button></button>'
          + '<div role="banner">x</div><h6>skips levels</h6><p tabindex="5">x</p>'
          + '<input type="text"><div aria-hidden="true"><a href="#">focusable</a></div>'); }"""
    )
    tab.evaluate(axe_source() + "\n;0")
    full = tab.evaluate(AXE_RUN, {"color-contrast": {"enabled": False}})["violations"]
    run = tab.evaluate(AXE_RUN, skipped_rules(tab))["violations"]

    def strong(violations):
        return {
            (v["id"], v["impact"]) for v in violations if v["impact"] in ("serious", "critical")
        }

    assert len(strong(full)) >= 3 and strong(full) == strong(run), (full, run)
    only_full = {(v["id"], v["impact"]) for v in full} - {(v["id"], v["impact"]) for v in run}
    assert only_full and {impact for _, impact in only_full} <= {"minor", "moderate"}, only_full


def test_the_accessibility_check_finds_faint_text_once(context, site_url):
    """The check above can fail: a faint paragraph added to a page is a colour-contrast
    violation; the same paragraph on a second page is not checked again; and text of another
    colour is."""
    page = next(p for p in PAGES if p.docname == "index")
    add_faint = """(colour) => { const p = document.createElement('p'); p.textContent = 'faint';
        p.style.color = colour; document.querySelector('article').appendChild(p); }"""
    checked: set[str] = set()
    found = []
    for colour in ("#bbb", "#bbb", "#ccc"):
        tab = context.new_page()
        open_page(tab, url_of(site_url, page))
        tab.evaluate(add_faint, colour)
        found.append(accessibility_problems(tab, checked))
        tab.close()
    first, again, other = found
    assert len(first) == 1 and first[0].startswith("color-contrast (serious)"), first
    assert "['article > p']" in first[0], first
    assert again == [], again
    assert len(other) == 1 and other[0].startswith("color-contrast (serious)"), other


# The operator reference (docs/*/operators.md, whatcopy/sphinxext/op_reference.py)
REQUEST_BUDGET = 20  # what a first view may ask for (whatcopy/site/bench.py measures every page)


class Requests(Listening, list):
    """The URLs a tab requests from now on."""

    def __init__(self, tab):
        super().__init__()
        self.listen(tab, {"request": lambda request: self.append(request.url)})


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_operator_table_filters_in_the_browser_within_the_budget(reader, site_url, language):
    """The filters, plain script under the page's own Content-Security-Policy, show exactly the
    rows that match; the page's first view asks for at most REQUEST_BUDGET files."""
    from whatcopy.core import transcripts
    from whatcopy.reference import op_table

    generator = transcripts.by_name(op_table.NAME)
    rows = op_table.parse(op_table.printed(generator.transcript("cpu"))).rows
    tab = reader  # its HTTP cache is off: the page requests every file it needs
    network, requested = Network(tab), Requests(tab)
    try:
        go_to(tab, f"{site_url}/{LANGUAGES[language][0]}/operators.html")
        network.wait_until_quiet(tab)
    finally:
        network.stop()
        requested.stop()
    assert len(requested) <= REQUEST_BUDGET, f"{language}: {len(requested)} requests"
    shown = lambda: tab.eval_on_selector_all(
        "#op-table tbody tr:not([hidden])", "rows => rows.map((row) => row.id)"
    )
    assert len(shown()) == len(rows), "the whole table shows before any filter"
    assert tab.is_visible("#op-filter"), f"{language}: the form stayed hidden: its script never ran"
    named = lambda word: [
        r.anchor for r in rows if any(word in n.lower() for n in [r.operator, *r.alias_names])
    ]
    tab.fill("#op-filter input[name=name]", "Reshape")
    assert shown() == named("reshape")
    tab.fill("#op-filter input[name=name]", "swapaxes")  # an alias: its entry's row
    assert shown() == named("swapaxes") == ["op-transpose"]
    assert tab.get_attribute("#op-transpose th a", "href") == "#op-transpose"  # the name's link
    tab.fill("#op-filter input[name=name]", "")
    tab.select_option("#op-filter select[name=memory]", "shares")
    assert shown() == [r.anchor for r in rows if r.memory_kind == "shares"]
    tab.select_option("#op-filter select[name=view]", "no")
    expected = [r.anchor for r in rows if r.memory_kind == "shares" and r.view_kind == "no"]
    assert shown() == expected and "op-detach" in expected
    tab.select_option("#op-filter select[name=memory]", "")
    tab.select_option("#op-filter select[name=view]", "")
    tab.check("#op-filter input[name=depends]")
    assert shown() == [r.anchor for r in rows if r.depends] and "op-reshape" in shown()
    tab.uncheck("#op-filter input[name=depends]")
    tab.check("#op-filter input[name=disagrees]")
    assert shown() == [r.anchor for r in rows if r.disagrees]
    assert tab.text_content("#op-count").count(str(len(shown()))) == 1
    assert tab.evaluate("window.__cspViolations") == [], f"{language}: CSP violations"
