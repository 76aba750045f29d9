"""The built site in a real browser: Debian's Chromium, headless, driven by Playwright.

The site is served from docs/_build/html on localhost; a request anywhere else fails a test.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from project import HTML, LANGUAGES, ROOT, all_pages

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PAGES = all_pages()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url():
    handler = functools.partial(QuietHandler, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash .ci/install-system-packages` (nox -s tests does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    yield context
    context.close()


def url_of(site_url: str, page) -> str:
    return f"{site_url}/{LANGUAGES[page.language][0]}/{page.docname}.html"


def watch(page, site_url):
    """Collect what a page did wrong: script errors, console errors, requests to other hosts."""
    problems = []
    host = urlsplit(site_url).netloc
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: problems.append(f"console {message.type}: {message.text}")
        if message.type == "error" else None,
    )

    def request(req):
        parts = urlsplit(req.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != host:
            problems.append(f"request to another host: {req.url}")

    page.on("request", request)
    page.on(
        "response",
        lambda response: problems.append(f"HTTP {response.status}: {response.url}")
        if response.status >= 400 else None,
    )
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_page_loads_cleanly_and_only_from_localhost(page, context, site_url):
    tab = context.new_page()
    problems = watch(tab, site_url)
    tab.goto(url_of(site_url, page), wait_until="networkidle")
    assert tab.locator("article h1").count() == 1
    assert not problems, f"{page.rel}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_language_switcher_lands_on_the_same_page(page, context, site_url):
    tab = context.new_page()
    tab.goto(url_of(site_url, page))
    other = next(lang for key, (_, lang) in LANGUAGES.items() if key != page.language)
    tab.locator(f".language-switch a[hreflang='{other}']").click()
    tab.wait_for_load_state()
    folder = next(f for f, lang in LANGUAGES.values() if lang == other)
    assert tab.url == f"{site_url}/{folder}/{page.docname}.html"
    assert tab.locator("html").get_attribute("lang") == other


def search(context, site_url, folder: str, query: str) -> list[str]:
    tab = context.new_page()
    problems = watch(tab, site_url)
    tab.goto(f"{site_url}/{folder}/search.html?q={query}")
    tab.wait_for_function(
        "() => { const s = document.querySelector('#search-results .search-summary');"
        " return s && s.textContent.trim().length > 0 && !Search._pulse_status; }",
        timeout=15000,
    )
    assert not problems, "\n".join(problems)
    return tab.locator("#search-results ul.search li a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )


@pytest.mark.parametrize(
    "folder, query",
    [
        ("en", "detach"),
        ("en", "version counter"),
        ("zh-cn", "detach"),
        ("zh-cn", "计算图"),  # a glossary term, typed as one word
        ("zh-cn", "版本计数器"),
        ("zh-cn", "共用内存"),  # two words typed without a space: the splitter must segment it
    ],
)
def test_search_finds_pages(context, site_url, folder, query):
    results = search(context, site_url, folder, query)
    assert results, f"searching {folder}/ for {query!r} found nothing"


def test_copy_button_copies_the_code_and_nothing_else(context, site_url):
    page = next(p for p in PAGES if p.language == "en" and p.cells())
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
PHONE = {"width": 375, "height": 740}


def screenshot(tab, page, kind: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"{page.language}-{page.docname.replace('/', '_')}-{kind}.png"
    tab.screenshot(path=str(ARTIFACTS / name), full_page=kind != "phone")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_phone_width_has_no_horizontal_scrolling(page, browser, site_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(url_of(site_url, page), wait_until="networkidle")
    overflow = tab.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    screenshot(tab, page, "phone")
    context.close()
    assert overflow[0] <= overflow[1], f"{page.rel}: {overflow[0]}px wide in a {overflow[1]}px screen"


def luminance(css_color: str) -> float:
    import re

    red, green, blue = (int(v) for v in re.findall(r"\d+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


@pytest.mark.parametrize("page", [p for p in PAGES if p.docname == "index"], ids=lambda p: p.rel)
def test_dark_mode_follows_the_system_and_the_toggle(page, browser, site_url):
    context = browser.new_context(color_scheme="dark")
    tab = context.new_page()
    tab.goto(url_of(site_url, page), wait_until="networkidle")
    background = lambda: tab.evaluate("getComputedStyle(document.body).backgroundColor")  # noqa: E731
    text = lambda: tab.evaluate("getComputedStyle(document.body).color")  # noqa: E731
    assert luminance(background()) < 80 < luminance(text()), (background(), text())
    screenshot(tab, page, "dark")
    # The toggle cycles the theme; one of its states must be light on a dark system.
    seen = set()
    for _ in range(3):
        tab.locator(".content-icon-container .theme-toggle").click()
        seen.add(tab.evaluate("document.body.dataset.theme"))
        if luminance(background()) > 200:
            break
    else:
        pytest.fail(f"the theme toggle never turned the page light (themes seen: {seen})")
    context.close()


@pytest.fixture(scope="module")
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.rel)
def test_no_serious_accessibility_violations(page, context, site_url, axe_source):
    """axe-core, injected into the page (no request), on the page as built."""
    tab = context.new_page()
    tab.goto(url_of(site_url, page), wait_until="networkidle")
    tab.add_script_tag(content=axe_source)
    results = tab.evaluate("async () => await axe.run(document)")
    screenshot(tab, page, "desktop")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s), e.g. "
        f"{v['nodes'][0]['target']}"
        for v in results["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert not serious, f"{page.rel}:\n" + "\n".join(serious)
