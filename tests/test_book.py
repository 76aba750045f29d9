"""The PDF book of each language (whatcopy/site/book.py, built by `nox -s tests` with the site):
every page of the site in it, in order, with its title and its executed outputs; a cover, a
table of contents that gives the right pages, a number on every sheet, links kept, folded
answers open, and Chinese in an embedded font with no missing glyph."""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pytest
from project import HTML, LANGUAGES, executed_cells, pages, parsed_html

from whatcopy.site import book

pytestmark = pytest.mark.usefixtures("built_site")  # every test here reads the built site

HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def book_path(language: str) -> Path:
    path = HTML / LANGUAGES[language][0] / book.book_name(language)
    assert path.exists(), f"{path} is missing: build it (python -m whatcopy build --book)"
    return path


@functools.cache
def sheets(language: str) -> tuple[str, ...]:
    """The text of each page of the book, as pdftotext reads it (in the order it is drawn)."""
    return tuple(book.sheet_texts(book_path(language)))


def squeezed(text: str) -> str:
    """Text without whitespace (lines wrap differently on paper) and with straight quotes."""
    return re.sub(r"\s+", "", text).replace("\u2019", "'")


def chapters(language: str) -> list[tuple[str, int, int]]:
    """(docname, first sheet, last sheet) of each page of the site in the book, in order."""
    starts = book.destinations(book_path(language))
    order = sorted(
        (number, name.removeprefix("document-"))
        for name, number in starts.items()
        if name.startswith("document-")
    )
    home = starts["home"]
    spans = [("index", home, order[0][0])]
    for (first, name), (following, _) in zip(order, [*order[1:], (len(sheets(language)), "")]):
        spans.append((name, first, following))
    return spans


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_has_a_sane_number_of_pages(language):
    """At least a cover, the contents and a sheet per page of the site; no more than the site
    would fill at 30 sheets a page; and the two languages within a third of each other, since
    they hold the same cells."""
    count = len(sheets(language))
    site = len(pages(language))
    assert site + 2 <= count <= 30 * site, f"{count} sheets for {site} pages"
    other = len(sheets(next(lang for lang in LANGUAGES if lang != language)))
    assert abs(count - other) <= max(count, other) / 3, (count, other)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_in_the_book_in_order_with_its_title_and_outputs(language):
    """Each page of the site starts a sheet of its own, in the order of the site's menu, with
    its title at the top; the output every one of its cells printed is on the sheets up to the
    next page (lines compared without whitespace, which wraps differently on paper)."""
    spans = chapters(language)
    built = [p for p in pages(language) if p.docname != "genindex"]
    assert {name for name, _, _ in spans} == {p.docname for p in built}
    menu = [
        a["href"].removesuffix(".html")
        for a in parsed_html(HTML / LANGUAGES[language][0] / "index.html").select(
            ".bd-docs-nav a.reference.internal"
        )
    ]
    assert [name for name, _, _ in spans[1:]] == [n for n in menu if n not in ("#", "index")]
    problems = []
    by_name = {p.docname: p for p in built}
    for name, first, last in spans:
        page = by_name[name]
        title = parsed_html(page.html).select_one("article h1").get_text().rstrip("#")
        if squeezed(title) not in squeezed(sheets(language)[first - 1]):
            problems.append(f"{page.rel}: title {title!r} not on sheet {first}")
        text = squeezed("".join(sheets(language)[first - 1 : last]))
        for snippet, printed, error in executed_cells(page):
            lines = [line for line in printed.splitlines() if line.strip()]
            sample = lines[0] if lines else (error or "").splitlines()[-1]
            if squeezed(sample) not in text:
                problems.append(f"{page.rel}: {snippet}'s output {sample!r} not on {first}-{last}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_opens_with_a_cover_and_contents_and_numbers_its_sheets(language):
    """The cover holds the site's title; the contents list each page with the sheet it starts
    on (the sheet its link leads to); every sheet's foot reads "n / total" (which pdftotext
    may read before the sheet's last lines)."""
    text = sheets(language)
    cover = parsed_html(HTML / LANGUAGES[language][0] / "index.html").select_one("article h1")
    assert squeezed(cover.get_text().rstrip("#")) in squeezed(text[0])
    starts = book.destinations(book_path(language))
    expected = sorted(n for name, n in starts.items() if name.startswith("document-"))
    # the contents run from the second sheet to the one before the first page: their lines end
    # in a sheet number, and each sheet's foot "n / total" is not one of them
    contents = "\n".join(text[1 : expected[0] - 1])
    contents = re.sub(r"^\d+ / \d+$", "", contents, flags=re.MULTILINE)
    listed = [int(n) for n in re.findall(r"(\d+)\s*$", contents, re.MULTILINE)]
    assert listed[: len(expected)] == expected, (listed, expected)
    total = len(text)
    unnumbered = [
        n
        for n, sheet in enumerate(text, start=1)
        if not re.search(rf"^{n} / {total}$", sheet, re.MULTILINE)
    ]
    assert not unnumbered, f"sheets without 'n / {total}' at their foot: {unnumbered}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_line_of_the_contents_links_to_its_page(language):
    """The contents' sheets are printed a second time, with their numbers written in, and
    replace the first print's (whatcopy/site/book.py): they keep its links, one per page listed."""
    from pypdf import PdfReader

    path = book_path(language)
    starts = book.destinations(path)
    listed = {name for name in starts if name.startswith("document-")}
    linked = set()
    for sheet in PdfReader(path).pages[1 : min(starts[name] for name in listed) - 1]:
        for annotation in sheet.get("/Annots") or []:
            target = annotation.get_object().get("/Dest")
            if target is not None:
                linked.add(str(target).removeprefix("/"))
    assert listed - linked == set(), f"contents lines with no link: {sorted(listed - linked)}"
    assert linked <= set(starts), f"links to nowhere: {sorted(linked - set(starts))}"


def heading_text(heading) -> str:
    return heading.get_text().rstrip("#")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_outline_lists_every_page_and_its_sections_where_they_start(language):
    """The bookmarks a PDF reader shows beside the book: the home page and every page of the
    site, in order, each with its title and leading to the sheet it starts on; under each, the
    page's sections in order (those right under its title), each leading to a sheet of its
    page. The book opens with them shown."""
    from pypdf import PdfReader

    reader = PdfReader(book_path(language))
    assert reader.page_mode == "/UseOutlines"
    parts = []  # (title, sheet, [(title, sheet), ...])
    for item in reader.outline:
        if isinstance(item, list):
            assert parts, "sections before the first page in the outline"
            parts[-1][2].extend(
                (inner.title, reader.get_destination_page_number(inner) + 1) for inner in item
            )
        else:
            parts.append((item.title, reader.get_destination_page_number(item) + 1, []))
    by_name = {p.docname: p for p in pages(language)}
    spans = chapters(language)
    assert len(parts) == len(spans), ([t for t, _, _ in parts], [n for n, _, _ in spans])
    problems = []
    for (title, sheet, sections), (name, first, last) in zip(parts, spans):
        html = parsed_html(by_name[name].html)
        if squeezed(title) != squeezed(heading_text(html.select_one("article h1"))):
            problems.append(f"{name}: bookmark {title!r}, page title differs")
        if sheet != first:
            problems.append(f"{name}: bookmark leads to sheet {sheet}, the page starts on {first}")
        expected = [squeezed(heading_text(h)) for h in html.select("article section > h2")]
        if [squeezed(t) for t, _ in sections] != expected:
            problems.append(f"{name}: section bookmarks {[t for t, _ in sections]}")
        problems += [
            f"{name}: section {t!r} on sheet {n}, outside {first}-{last}"
            for t, n in sections
            if not first <= n <= last
        ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_keeps_links_and_opens_every_fold(language):
    """Links between pages lead inside the book; links out lead to the web or the site, never
    to the server the book was printed from; the folded answers are printed open."""
    data = book_path(language).read_bytes()
    inside = set(re.findall(rb"/Dest /(document-[\w-]+)", data))
    assert len(inside) >= len(pages(language)) // 2, inside
    out = links_out(book_path(language))
    assert any(uri.startswith("https://pytorch.org/") for uri in out)
    wrong = [uri for uri in out if re.search(r"127\.0\.0\.1|localhost|^file:|book\.invalid", uri)]
    assert not wrong, (
        f"links to the printing server, a local folder or the placeholder: {wrong[:5]}"
    )
    # Built without the published site's address, the book links the site beside it.
    local = [uri for uri in out if not re.match(r"[a-z]+:", uri)]
    assert "downloads/snippets.zip" in local or any(u.startswith("downloads/") for u in local), (
        local[:10]
    )
    for uri in local:
        target = (book_path(language).parent / uri.split("#")[0]).resolve()
        assert target.exists(), f"{uri}: no such file beside the book"
    text = squeezed("".join(sheets(language)))
    answers = [
        fold.find("summary").find_next_sibling().get_text()
        for p in pages(language)
        if p.html.exists()
        for fold in parsed_html(p.html).select("details.exercise-answer")
    ]
    assert answers, "no folded answers on the site?"
    closed = [answer[:60] for answer in answers if squeezed(answer)[:40] not in text]
    assert not closed, f"answers not printed: {closed}"


def links_out(pdf: Path) -> list[str]:
    """The address of every link of the book that leaves it (as a reader's PDF viewer reads
    them: the file's last word on each link)."""
    from pypdf import PdfReader

    uris = []
    for sheet in PdfReader(pdf).pages:
        for annotation in sheet.get("/Annots", []):
            action = annotation.get_object().get("/A")
            if action is not None and "/URI" in action.get_object():
                uris.append(str(action.get_object()["/URI"]))
    return uris


def fonts(pdf: Path) -> list[dict[str, str]]:
    listed = subprocess.run(
        ["pdffonts", str(pdf)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    header = listed[0]
    columns = ["name", "type", "encoding", "emb", "sub", "uni"]
    starts = [header.index(word) for word in ("name", "type", "encoding", "emb", "sub", "uni")]
    rows = []
    for line in listed[2:]:
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        rows.append(dict(zip(columns, [*cells[:5], cells[5].split()[0]])))
    return rows


def test_the_chinese_book_embeds_a_chinese_font_and_has_no_missing_glyph():
    """pdffonts: every font is embedded, one of them a CJK font; no text run draws glyph 0,
    the box a missing character becomes; and every Han character of the site's Chinese pages
    is in the book's text."""
    path = book_path("zh")
    found = fonts(path)
    assert found and all(font["emb"] == "yes" for font in found), found
    assert any(re.search(r"WenQuanYi|CJK|Hei|Song|Kai|Ming", f["name"]) for f in found), found
    assert book.missing_glyphs(path) == 0
    site = set()
    for page in pages("zh"):
        if page.html.exists():
            site |= set(HAN.findall(parsed_html(page.html).select_one("article").get_text()))
    printed = set(HAN.findall("".join(sheets("zh"))))
    assert site - printed == set(), (
        f"Han characters of the site missing from the book: {site - printed}"
    )


@pytest.mark.browser
def test_the_missing_glyph_check_sees_tofu(tmp_path):
    """The check above can fail: a character no installed font has (U+20000, in CJK
    Extension B, which WenQuanYi Micro Hei lacks) is printed by Chromium as glyph 0, and found."""
    from playwright.sync_api import sync_playwright

    from whatcopy.site.browser import CHROMIUM, CHROMIUM_ARGS

    pdfs = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = browser.new_page()
        for name, text in (("plain", "共用内存"), ("tofu", "共用内存 \U00020000")):
            tab.set_content(f'<html lang="zh-CN"><body><p>{text}</p></body></html>')
            pdfs[name] = tmp_path / f"{name}.pdf"
            tab.pdf(path=str(pdfs[name]))
        browser.close()
    assert book.missing_glyphs(pdfs["plain"]) == 0
    assert book.missing_glyphs(pdfs["tofu"]) == 1
