"""The built site, read as files: self-contained, in the right language, every link sound."""

from __future__ import annotations

import functools
import gettext
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import furo
import pytest
import sphinx
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from jinja2.ext import babel_extract
from project import DOCS, HTML, LANGUAGES, all_pages

from whatcopy.sphinxext.site_languages import HARDCODED_LABELS, HIDDEN_CELL_LABEL

HTML_FILES = sorted(HTML.rglob("*.html"))
HAN = re.compile(r"[\u4e00-\u9fff]")
# Elements whose URL attribute makes the browser fetch something.
FETCHING = {
    "script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src",
    "video": "src", "embed": "src", "track": "src", "object": "data",
}
LOADING_LINK_RELS = {"stylesheet", "preload", "prefetch", "modulepreload", "icon", "manifest",
                     "apple-touch-icon", "dns-prefetch", "preconnect"}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@functools.cache
def anchors(path: Path) -> frozenset[str]:
    """The ids in a page, parsed once however many links point into it."""
    return frozenset(tag["id"] for tag in soup(path).find_all(id=True))


def is_foreign(url: str) -> bool:
    return bool(urlsplit(url).netloc) or url.startswith("//")


def test_the_site_is_built():
    assert HTML_FILES, f"{HTML} has no pages: build the site first (nox -s docs)"
    for folder, _ in LANGUAGES.values():
        assert (HTML / folder / "index.html").exists(), f"{HTML / folder} is missing"


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(HTML)))
def test_no_page_loads_anything_from_another_host(path):
    problems = []
    page = soup(path)
    for tag, attribute in FETCHING.items():
        for element in page.find_all(tag):
            url = element.get(attribute, "")
            if is_foreign(url):
                problems.append(f"<{tag} {attribute}={url}>")
    for link in page.find_all("link"):
        rels = set(link.get("rel", []))
        if rels & LOADING_LINK_RELS and is_foreign(link.get("href", "")):
            problems.append(f"<link rel={' '.join(rels)} href={link['href']}>")
    for style in page.find_all(style=True):
        problems += re.findall(r"url\((['\"]?(?:https?:)?//[^)]*)\)", style["style"])
    assert not problems, f"{path.relative_to(HTML)} loads from other hosts: {problems}"


def test_no_stylesheet_loads_anything_from_another_host():
    problems = []
    for css in HTML.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        for url in re.findall(r"(?:url\(|@import\s+)['\"]?((?:https?:)?//[^'\")\s]+)", text):
            problems.append(f"{css.relative_to(HTML)}: {url}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_html_lang_is_the_page_language(language):
    folder, lang = LANGUAGES[language]
    wrong = [p.name for p in (HTML / folder).rglob("*.html") if soup(p).html.get("lang") != lang]
    assert not wrong, f"pages in {folder}/ without <html lang=\"{lang}\">: {wrong}"


def theme_strings() -> set[str]:
    """Every string furo and our own templates pass through gettext, plus furo's hard-coded
    labels that site_languages.py makes translatable."""
    strings = set(HARDCODED_LABELS) | {HIDDEN_CELL_LABEL}
    folders = [Path(furo.__file__).parent / "theme", DOCS / "_templates"]
    for template in (t for folder in folders for t in folder.rglob("*.html")):
        with template.open("rb") as handle:
            for _, _, message, _ in babel_extract(handle, ["_", "gettext"], [], {}):
                if isinstance(message, str):
                    strings.add(message)
    return strings


def test_every_theme_string_has_a_simplified_chinese_translation():
    with (DOCS / "locale/zh_CN/LC_MESSAGES/sphinx.po").open("rb") as handle:
        ours = {m.id: m.string for m in read_po(handle) if m.id}
    sphinx_catalog = gettext.translation(
        "sphinx", str(Path(sphinx.__file__).parent / "locale"), languages=["zh_CN"]
    )
    missing = sorted(
        s for s in theme_strings()
        if not ours.get(s) and sphinx_catalog.gettext(s) == s
    )
    assert not missing, (
        "theme strings with no Simplified Chinese translation; add them to "
        "docs/locale/zh_CN/LC_MESSAGES/sphinx.po:\n" + "\n".join(repr(m) for m in missing)
    )


@pytest.mark.parametrize("path", sorted((HTML / LANGUAGES["zh"][0]).rglob("*.html")), ids=lambda p: p.name)
def test_chinese_pages_label_their_controls_in_chinese(path):
    """Screen-reader labels, placeholders and tooltips of the interface are Chinese too."""
    english = []
    for element in soup(path).find_all(attrs={"aria-label": True}):
        if not HAN.search(element["aria-label"]):
            english.append(f"aria-label={element['aria-label']!r}")
    for attribute in ("placeholder", "title"):
        for element in soup(path).find_all(attrs={attribute: True}):
            if element.name != "link" and not HAN.search(element[attribute]):
                english.append(f"{attribute}={element[attribute]!r}")
    assert not english, f"zh-cn/{path.name} has English interface labels: {english}"


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_language_switcher_links_to_the_same_page_in_the_other_language(page):
    links = soup(page.html).select(".language-switch a[hreflang]")
    assert len(links) == len(LANGUAGES) - 1, f"{page.html}: no language switcher"
    for link in links:
        target = (page.html.parent / link["href"]).resolve()
        twin_folder = next(f for f, lang in LANGUAGES.values() if lang == link["hreflang"])
        assert target == (HTML / twin_folder / f"{page.docname}.html").resolve(), link
        assert target.exists(), f"{page.html} switches to missing {target}"


def test_the_root_page_offers_both_languages():
    root = soup(HTML / "index.html")
    hrefs = {a["href"] for a in root.find_all("a")}
    assert hrefs == {"en/index.html", "zh-cn/index.html"}, hrefs


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_every_cell_says_where_its_output_was_verified(page):
    from importlib.metadata import version

    cells = soup(page.html).select("div.cell")
    assert len(cells) == len(page.cells())
    for cell in cells:
        meta = cell.select_one(".snippet-meta")
        assert meta is not None, f"{page.html}: a cell without provenance"
        text = meta.get_text(" ")
        assert f"torch {version('torch')}" in text and "CPU" in text and "CUDA" in text, text


@pytest.mark.parametrize("path", HTML_FILES, ids=lambda p: str(p.relative_to(HTML)))
def test_every_internal_link_and_anchor_resolves(path):
    problems = []
    for link in soup(path).find_all("a", href=True):
        href = link["href"]
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
            continue
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            problems.append(f"{href}: no such file")
        elif parts.fragment and target.suffix == ".html":
            if parts.fragment not in anchors(target):
                problems.append(f"{href}: no #{parts.fragment} in {target.name}")
    assert not problems, f"{path.relative_to(HTML)}: " + "; ".join(problems)
