"""The PDF books of each language (whatcopy/site/book.py, built by `nox -s tests` with the site),
a students' edition and a teachers' edition: every page of the site in each, in order, with its
title and its executed outputs, each once (no table also as the raw text it was drawn from), no
screen widget, no generator's source; the operator reference on landscape sheets, nothing of
it off the sheet; a cover, a table of contents that gives the right pages, a number on every
sheet, links kept; the exercises' answers in an appendix of the teachers' edition and nowhere in
the students'; and Chinese in an embedded font with no missing glyph."""

from __future__ import annotations

import copy
import functools
import re
import subprocess
from pathlib import Path

import pytest
from project import BUILD, HTML, LANGUAGES, ROOT, pages, parsed_html, snippet_name

from whatcopy.site import book

pytestmark = pytest.mark.usefixtures("built_site")  # every test here reads the built site

HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
EDITIONS = book.EDITIONS
BOTH = pytest.mark.parametrize("edition", EDITIONS)


def book_path(language: str, edition: str = "teacher") -> Path:
    path = book.book_file(language, edition, BUILD)
    assert path.exists(), f"{path} is missing: build it (python -m whatcopy build --book)"
    return path


@functools.cache
def sheets(language: str, edition: str = "teacher") -> tuple[str, ...]:
    """The text of each page of the book, as pdftotext reads it (in the order it is drawn)."""
    return tuple(book.sheet_texts(book_path(language, edition)))


def squeezed(text: str) -> str:
    """Text without whitespace (lines wrap differently on paper) and with straight quotes."""
    return re.sub(r"\s+", "", text).replace("\u2019", "'")


def appendix(language: str, edition: str) -> int | None:
    """The sheet the appendix of answers starts on (None: the book has none)."""
    return book.destinations(book_path(language, edition)).get("book-answers")


def chapters(language: str, edition: str = "teacher") -> list[tuple[str, int, int]]:
    """(docname, first sheet, last sheet) of each page of the site in the book, in order (the
    last page's up to the appendix, where there is one)."""
    starts = book.destinations(book_path(language, edition))
    order = sorted(
        (number, name.removeprefix("document-"))
        for name, number in starts.items()
        if name.startswith("document-")
    )
    home = starts["home"]
    spans = [("index", home, order[0][0])]
    end = appendix(language, edition) or len(sheets(language, edition))
    for (first, name), (following, _) in zip(order, [*order[1:], (end, "")]):
        spans.append((name, first, following))
    return spans


def chapter_text(language: str, edition: str, docname: str) -> str:
    first, last = next((a, b) for name, a, b in chapters(language, edition) if name == docname)
    return squeezed("".join(sheets(language, edition)[first - 1 : last]))


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_the_book_has_a_sane_number_of_pages(language, edition):
    """At least a cover, the contents and a sheet per page of the site; no more than the site
    would fill at 30 sheets a page; the two languages within a third of each other, since
    they hold the same cells; the students' edition shorter than the teachers'."""
    count = len(sheets(language, edition))
    site = len(pages(language))
    assert site + 2 <= count <= 30 * site, f"{count} sheets for {site} pages"
    other = len(sheets(next(lang for lang in LANGUAGES if lang != language), edition))
    assert abs(count - other) <= max(count, other) / 3, (count, other)
    assert len(sheets(language, "student")) < len(sheets(language, "teacher"))


def shown_sample(cell) -> str:
    """A line of what the book should show of a cell's output: its first printed line, or the
    first text of the table or diagram drawn from it (the printed text under that is a screen
    fold, left out of the book, as is the operator reference's filter form), or of the atlas
    drawn after the cell."""
    output = cell.select_one(".cell_output")
    if output is None:
        return ""
    drawn = copy.copy(output)
    for hidden in drawn.select("details.printed-output, form, title, script, style"):
        hidden.decompose()
    texts = [t for t in drawn.stripped_strings]
    if not texts and cell.find_next_sibling():
        texts = list(cell.find_next_sibling().stripped_strings)
    first = texts[0].splitlines()[0] if texts else ""
    # a Markdown table the site shows as printed text is drawn in the book: its first cell
    return first.strip("|").split("|")[0] if re.fullmatch(r"\s*\|.*\|\s*", first) else first


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_every_page_is_in_the_book_in_order_with_its_title_and_outputs(language, edition):
    """Each page of the site starts a sheet of its own, in the order of the site's menu, with
    its title at the top; the output every one of its cells printed (but the exercises', which
    are answers) is on the sheets up to the next page (lines compared without whitespace, which
    wraps differently on paper)."""
    spans = chapters(language, edition)
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
        if squeezed(title) not in squeezed(sheets(language, edition)[first - 1]):
            problems.append(f"{page.rel}: title {title!r} not on sheet {first}")
        text = squeezed("".join(sheets(language, edition)[first - 1 : last]))
        for cell in parsed_html(page.html).select("div.cell:not(.exercise-cell)"):
            snippet = snippet_name(cell.select_one(".snippet-meta code").get_text())
            sample = shown_sample(cell)
            assert sample, f"{page.rel}: {snippet} shows no output"
            if squeezed(sample) not in text:
                problems.append(f"{page.rel}: {snippet}'s output {sample!r} not on {first}-{last}")
    assert not problems, "\n".join(problems)


def test_the_home_chapter_starts_with_its_answer():
    """The first sheet of the home page holds its title and the whole first row of its table
    (the answer), not the code that printed it."""
    for language in LANGUAGES:
        home = parsed_html(book_path(language).parents[0] / "index.html")
        table = home.select_one("article table")
        row = [td.get_text() for td in table.select("tbody tr")[0].select("td, th")]
        _, first, _ = chapters(language)[0]
        sheet = squeezed(sheets(language)[first - 1])
        assert squeezed(home.select_one("article h1").get_text().rstrip("#")) in sheet
        assert squeezed("".join(row)) in sheet, (language, row, sheet[:300])


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_the_book_opens_with_a_cover_and_contents_and_numbers_its_sheets(language, edition):
    """The cover holds the site's title; the contents list each page (and the appendix of
    answers, in the teachers' edition) with the sheet it starts on (the sheet its link leads
    to); every sheet's foot reads "n / total" (which pdftotext may read before the sheet's last
    lines)."""
    text = sheets(language, edition)
    cover = parsed_html(book_path(language).parent / "index.html").select_one("article h1")
    assert squeezed(cover.get_text().rstrip("#")) in squeezed(text[0])
    starts = book.destinations(book_path(language, edition))
    expected = sorted(
        n for name, n in starts.items() if name.startswith("document-") or name == "book-answers"
    )
    assert ("book-answers" in starts) == (edition == "teacher"), sorted(starts)[:5]
    # the contents run from the second sheet to the one before the first page: their lines end
    # in a sheet number, and each sheet's foot "n / total" is not one of them
    contents = "\n".join(text[1 : expected[0] - 1])
    contents = re.sub(r"^\d+ / \d+$", "", contents, flags=re.MULTILINE)
    listed = [int(n) for n in re.findall(r"(\d+)\s*$", contents, re.MULTILINE)]
    assert listed == expected, (listed, expected)
    total = len(text)
    unnumbered = [
        n
        for n, sheet in enumerate(text, start=1)
        if not re.search(rf"^{n} / {total}$", sheet, re.MULTILINE)
    ]
    assert not unnumbered, f"sheets without 'n / {total}' at their foot: {unnumbered}"


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_each_line_of_the_contents_links_to_its_page(language, edition):
    """The contents' sheets are printed a second time, with their numbers written in, and
    replace the first print's (whatcopy/site/book.py): they keep its links, one per page listed."""
    from pypdf import PdfReader

    path = book_path(language, edition)
    starts = book.destinations(path)
    listed = {name for name in starts if name.startswith("document-") or name == "book-answers"}
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
@BOTH
def test_the_outline_lists_every_page_and_its_sections_where_they_start(language, edition):
    """The bookmarks a PDF reader shows beside the book: the home page and every page of the
    site, in order, each with its title and leading to the sheet it starts on; under each, the
    page's sections in order (those right under its title), each leading to a sheet of its
    page; in the teachers' edition, last, the appendix of answers, with a section per page
    that has exercises. The book opens with them shown."""
    from pypdf import PdfReader

    reader = PdfReader(book_path(language, edition))
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
    spans = chapters(language, edition)
    if edition == "teacher":
        title, sheet, sections = parts.pop()
        assert sheet == appendix(language, edition), (title, sheet)
        with_exercises = [
            p for p in pages(language) if parsed_html(p.html).select("details.exercise-answer")
        ]
        assert len(sections) == len(with_exercises), [t for t, _ in sections]
        assert all(n >= sheet for _, n in sections), sections
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
@BOTH
def test_the_book_keeps_links(language, edition):
    """Links between pages lead inside the book; links out lead to the web or the site, never
    to the server the book was printed from."""
    data = book_path(language, edition).read_bytes()
    inside = set(re.findall(rb"/Dest /(document-[\w-]+)", data))
    assert len(inside) >= len(pages(language)) // 2, inside
    out = links_out(book_path(language, edition))
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


def answers(language: str) -> list[tuple[str, str]]:
    """(what it prints, why) of each exercise's folded answer on the site."""
    found = [
        (
            fold.select_one(".cell_output").get_text(),
            fold.select_one(".exercise-reason").get_text(),
        )
        for p in pages(language)
        if p.html.exists()
        for fold in parsed_html(p.html).select("details.exercise-answer")
    ]
    assert found, "no folded answers on the site?"
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_teachers_edition_has_every_answer_in_its_appendix(language):
    """Each exercise's answer (why it prints what it prints: its first 100 characters, which
    some prose of the site shares the first 40 of) is on the appendix's sheets, not under the
    exercise; and each exercise links to its answer there."""
    first = appendix(language, "teacher")
    assert first, "the teachers' edition has no appendix of answers"
    text = sheets(language, "teacher")
    before, after = squeezed("".join(text[: first - 1])), squeezed("".join(text[first - 1 :]))
    missing = [why[:60] for printed, why in answers(language) if squeezed(why)[:100] not in after]
    assert not missing, f"answers not in the appendix: {missing}"
    misplaced = [why[:60] for printed, why in answers(language) if squeezed(why)[:100] in before]
    assert not misplaced, f"answers printed before the appendix: {misplaced}"
    data = book_path(language, "teacher").read_bytes()
    linked = set(re.findall(rb"/Dest /(book-answer-\d+)", data))
    assert len(linked) == len(answers(language)), sorted(linked)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_students_edition_has_no_answer(language):
    """No exercise's reason, and no summary of a folded answer, is in the students' edition
    (what an exercise prints is not looked for: the same output may be printed by another
    cell of the site); the questions are."""
    text = squeezed("".join(sheets(language, "student")))
    shown = [why[:60] for _, why in answers(language) if squeezed(why)[:100] in text]
    assert not shown, f"answers in the students' edition: {shown}"
    questions = [
        q.get_text()
        for p in pages(language)
        for q in parsed_html(p.html).select(".exercise-question")
    ]
    assert questions and all(squeezed(q)[:40] in text for q in questions)


# A row of a Markdown table as printed text (a line from | to |; a row that wrapped on paper has
# a line from | or to |, and the table its line of ---): what the site draws as a table, with the
# text folded under it. (A snippet's code that writes such rows has them in quotes.)
RAW_ROW = re.compile(r"^\s*\|.*\|\s*$|^\s*\|(\s*:?-{3,}:?\s*\|)+", re.MULTILINE)


def widget_strings(language: str) -> set[str]:
    """The words of the site's screen widgets: the summaries of folded code, of the printed
    text under a drawn table or diagram, and of folded answers."""
    found = set()
    for p in pages(language):
        for summary in parsed_html(p.html).select(
            "details.hide > summary span, details.printed-output > summary, "
            "details.exercise-answer > summary"
        ):
            found.add(summary.get_text().strip())
    assert len(found) >= 3, found
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_each_output_is_printed_once_and_no_widget(language, edition):
    """No row of a Markdown table as text (each table is printed once, drawn), no fold's
    summary or triangle."""
    text = sheets(language, edition)
    raw = [
        (n, match.group(0)[:60])
        for n, sheet in enumerate(text, start=1)
        for match in RAW_ROW.finditer(sheet)
    ]
    assert not raw, f"Markdown table rows printed as text (sheet, row): {raw[:5]}"
    # a widget's words on a line of their own (prose may name one: "open “Printed output”")
    lines = {squeezed(line) for sheet in text for line in sheet.splitlines()}
    widgets = [w for w in widget_strings(language) if squeezed(w) in lines]
    assert not widgets, f"screen widgets printed: {widgets}"
    whole = squeezed("".join(text))
    assert not {"▼", "▶", "►"} & set(whole)


def generators(language: str) -> dict[str, str]:
    """The generators whose output a page of the language shows: {file: docname}."""
    found = {}
    for p in pages(language):
        for code in parsed_html(p.html).select("div.cell .snippet-meta code"):
            if code.get_text().startswith("generators/"):
                found[code.get_text()] = p.docname
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_no_generator_source_but_its_file_named(language, edition):
    """No line of a generator's source is in the book (none shorter than 30 characters, nor
    one a snippet has too, nor one the generator prints: the error atlas prints each entry's
    code); the page that shows its output names its file."""
    used = generators(language)
    assert "generators/operators.py" in used, used
    whole = squeezed("".join(sheets(language, edition)))
    snippets = {
        squeezed(line)
        for path in (ROOT / "snippets").rglob("*.py")
        for line in path.read_text().splitlines()
    }
    for name, docname in used.items():
        page = next(p for p in pages(language) if p.docname == docname)
        output = squeezed(
            "".join(
                pre.get_text()
                for cell in parsed_html(page.html).select("div.cell")
                if cell.select_one(".snippet-meta code").get_text() == name
                for pre in cell.select(".cell_output pre")
            )
        )
        lines = [squeezed(line) for line in (ROOT / name).read_text().splitlines()]
        printed = [
            line
            for line in lines
            if len(line) >= 30 and line not in snippets and line not in output
        ]
        assert len(printed) > 50, f"{name}: too few lines to look for"
        printed = [line for line in printed if line in whole]
        assert not printed, f"{name}: {len(printed)} lines of its source printed: {printed[:3]}"
        assert squeezed(name) in chapter_text(language, edition, docname), (name, docname)


def sheet_sizes(pdf: Path) -> list[tuple[float, float]]:
    info = book.pdfinfo(pdf, "-f", "1", "-l", "100000")
    return [
        (float(w), float(h))
        for w, h in re.findall(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info, re.MULTILINE)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@BOTH
def test_the_operator_reference_is_on_landscape_sheets_that_hold_its_table(language, edition):
    """The operator reference's sheets are landscape, every other sheet portrait; every word on
    them lies inside the sheet, in type no smaller than 6 points, and every operator of the
    table is named on them."""
    pdf = book_path(language, edition)
    sizes = sheet_sizes(pdf)
    assert len(sizes) == len(sheets(language, edition))
    _, first, last = next(span for span in chapters(language, edition) if span[0] == "operators")
    # the chapter's last sheet is the one the next page starts on, unless that is landscape
    last = last if sizes[last - 1][0] > sizes[last - 1][1] else last - 1
    wide = [n for n, (w, h) in enumerate(sizes, start=1) if w > h]
    assert wide == list(range(first, last + 1)), (wide[:3], wide[-3:], first, last)
    bbox = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(first), "-l", str(last), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    width = sizes[first - 1][0]
    words = re.findall(
        r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<',
        bbox,
    )
    assert len(words) > 1000, len(words)
    outside = [w for w in words if float(w[0]) < 0 or float(w[2]) > width]
    assert not outside, f"words off the sheet: {outside[:5]}"

    # a word's type size: its height, but a glyph written upwards (the kinds of input in
    # Chinese, read one by one) is wider than high, and as wide as its type is high
    def size(word) -> float:
        width, height = float(word[2]) - float(word[0]), float(word[3]) - float(word[1])
        return width if len(word[4]) == 1 and width > height else height

    small = [w for w in words if size(w) < 6]
    assert len(small) < len(words) / 100, f"{len(small)} words in type under 6 pt: {small[:5]}"
    html = parsed_html(pdf.parent / "operators.html")
    names = [th.contents[0].get_text().strip() for th in html.select("#op-table tbody th")]
    text = chapter_text(language, edition, "operators")
    missing = [name for name in names if squeezed(name) not in text]
    assert not missing, f"operators not in the book's reference: {missing[:10]}"


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


@BOTH
def test_the_chinese_book_embeds_a_chinese_font_and_has_no_missing_glyph(edition):
    """pdffonts: every font is embedded, one of them a CJK font; no text run draws glyph 0,
    the box a missing character becomes; and every Han character of the site's Chinese pages
    (but for its screen widgets, and for the answers in the students' edition) is in the
    book's text."""
    path = book_path("zh", edition)
    found = fonts(path)
    assert found and all(font["emb"] == "yes" for font in found), found
    assert any(re.search(r"WenQuanYi|CJK|Hei|Song|Kai|Ming", f["name"]) for f in found), found
    assert book.missing_glyphs(path) == 0
    site = set()
    left_out = "details.hide > summary, details.printed-output, details.exercise-answer > summary"
    if edition == "student":
        left_out += ", details.exercise-answer"
    for page in pages("zh"):
        if page.html.exists():
            article = copy.copy(parsed_html(page.html).select_one("article"))  # read-only
            for part in article.select(left_out):
                part.decompose()
            site |= set(HAN.findall(article.get_text()))
    printed = set(HAN.findall("".join(sheets("zh", edition))))
    assert site - printed == set(), (
        f"Han characters of the site missing from the book: {site - printed}"
    )


@BOTH
def test_the_english_book_draws_italics_and_bold_in_their_own_faces(edition):
    """The English book's italic and bold text is drawn in DejaVu's own italic (Oblique) and bold
    faces, embedded. Where a machine lacks the italic face (Debian's fonts-dejavu-extra),
    Chromium slants the upright one instead, and the book's bytes depend on the machine that
    printed it: CI's fresh machine found that (docs/dev/decisions/0048-books-compared-on-the-fresh-machine.md)."""
    found = {font["name"].split("+")[-1] for font in fonts(book_path("en", edition))}
    assert {"DejaVuSans-Oblique", "DejaVuSans-Bold"} <= found, (
        f"the book's fonts are {sorted(found)}: install fonts-dejavu-extra "
        "(sudo bash .ci/install-system-packages books) and print the books again"
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
