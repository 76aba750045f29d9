"""The whole site as one PDF book per language (`nox -s book`; `nox -s tests` builds them too):
docs/_build/html/<folder>/what-does-it-copy-<folder>.pdf, beside the language's pages.

    python -m whatcopy book            # both languages, from the site built in docs/_build
    python -m whatcopy book zh         # one language
    python -m whatcopy book --out DIR  # from the site built under DIR (whatcopy build --out)

Chromium's print to PDF, through Playwright, over Sphinx's `singlehtml` build, rather than
LaTeX: why, and what it was measured to cost, in docs/dev/decisions/0001-pdf-book-via-chromium.md.

Each language's book:

1. `sphinx-build -b singlehtml` with a copy of the HTML build's doctrees, so nothing is read or
   executed again: the pages in toctree order, as one document whose links between pages
   are links inside it (#document-<page>, #<label>).
2. Chromium loads it with the print stylesheet, opens every folded block (answers, hidden code),
   makes every link that leaves the book absolute (the site's address, when known;
   the built site's folder otherwise), and puts a cover, and a table of contents with the page
   each page of the site starts on, before the first page; each page of the site starts a new
   sheet, and every sheet but the cover has its number at the foot.
3. The page numbers of the contents are read from that print (the PDF's named destinations,
   `pdfinfo -dests`) and written in; then only the cover and the contents are printed again
   (the pages of the site hidden). Their sheets replace the first sheets of the whole print, each keeping the links of the
   sheet it replaces (pypdf, as an incremental update: the rest of the file is the first print,
   byte for byte). That is checked: the new sheets are as many as the old (up to the sheet the
   first page of the site starts on), and read the same but for the digits written in.
4. The same update adds the book's outline (the bookmarks a PDF reader lists beside the book):
   the home page and each page of the site, in order, each with its sections, leading where the
   book's own links to them lead (not Chromium's tagged-PDF outline: decision 0001).
"""

from __future__ import annotations

import datetime
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

from whatcopy import project
from whatcopy.incremental import digest_of, unchanged, unless_unchanged
from whatcopy.languages import LANGUAGES
from whatcopy.site import build
from whatcopy.site.browser import CHROMIUM, CHROMIUM_ARGS, serving
from whatcopy.sphinxext import course_kit
from whatcopy.sphinxext.messages import N_, catalog

TITLE = N_("What does it copy?")
SUBTITLE = N_(
    "The whole site as a book: every output in it was printed by its code when it was built"
)
BUILT = N_("Built on {date} from the site's sources.")
ONLINE = N_("On the web: {url}")
EDITION_LINES = {
    "student": N_("Students' edition: the exercises' answers are not in it."),
    "teacher": N_("Teachers' edition: the exercises' answers are in an appendix."),
}
# In place of a cell's code that the site folds (a generator's, or a snippet's whose output is
# the point): the book prints the output, and names the file.
FOLDED = N_(
    "The code of this cell, {file}, is not printed in the book: it is on the site, and among "
    "its downloads."
)
ANSWERS = N_("Answers to the exercises")
SAME = N_("The output printed above.")
ANSWER_LINK = N_("The answer is in the appendix, “Answers to the exercises”.")

# Where links that leave the book point while it is printed, when the published site's address
# is not known: each is then written relative to the book's folder (the language's folder of
# the site), so the book links the pages and downloads beside it, wherever it was built.
LOCAL = "https://book.invalid/site/"

# The book's own layout, over the site's print stylesheet (docs/_static/site.css).
STYLE = """
@page { size: A4; margin: 16mm 14mm 18mm; }
.book-cover { break-after: page; display: flex; flex-direction: column; justify-content: center;
  min-height: 230mm; text-align: center; }
.book-cover h1 { font-size: 2.6rem; margin-bottom: 1.5rem; }
.book-cover p { font-size: 1.05rem; max-width: 34em; margin: 0.6rem auto; }
/* the cover has the title: not the theme's print header too; but the first page keeps its
   title, which the theme hides in print for its header's sake */
#jb-print-docs-body > h1 { display: none; }
.bd-main .bd-content .bd-article h1:first-of-type { display: block; }
#jb-print-toc { break-after: page; }
#jb-print-toc a { display: flex; gap: 0.5em; }
#jb-print-toc a .book-title { flex: 1; }
#jb-print-toc a .book-page { min-width: 3ch; text-align: right; font-variant-numeric: tabular-nums; }
.book-chapter { break-before: page; }
/* a fold's triangle is a screen widget: not on paper */
summary { list-style: none; }
summary::-webkit-details-marker { display: none; }
.book-folded, .book-answer-link { font-size: 0.85rem; font-style: italic; color: #444; }
.book-answer { break-inside: avoid; margin-bottom: 1rem; }
.book-appendix h2 a { color: inherit; text-decoration: none; }
/* the operator reference, on landscape sheets: its table laid out to the sheet's width, the
   kinds of input as columns of marks (PREPARE) */
@page landscape { size: A4 landscape; margin: 14mm 14mm 16mm; }
.book-landscape { page: landscape; }
/* the page and the theme's columns laid out as blocks, each as wide as the sheet it is on (a
   flex container's width would be a portrait sheet's on the landscape sheets too) */
body, .bd-container, .bd-container__inner, .bd-main, .bd-content, .bd-article-container {
  display: block !important; width: auto !important; max-width: none !important; }
.book-landscape table { table-layout: fixed; width: 100% !important; line-height: 1.2; }
.book-landscape table .op-aliases { display: inline !important; }
.book-landscape table td, .book-landscape table th { font-size: 9px !important;
  overflow-wrap: anywhere; padding: 1px 3px !important; min-width: 0 !important; }
.book-landscape table td *, .book-landscape table th * { font-size: inherit !important; }
.book-landscape table details ul { margin: 0; padding-left: 0.8em; }
.book-landscape table th.book-kind { writing-mode: vertical-rl; transform: rotate(180deg);
  text-align: left; vertical-align: bottom; white-space: nowrap; padding: 3px 0 !important; }
.book-landscape table td.book-mark { text-align: center; padding: 1px 0 !important; }
.book-landscape tr { break-inside: avoid; }
/* no fade-in of an opened fold: Chromium would print it at its first, transparent frame */
*, *::before, *::after { animation: none !important; transition: none !important; }
/* Paper does not scroll: a long line of code or output wraps instead of being cut off, and so
   do the cells of a wide table. (Nothing may be wider than the sheet: Chromium would shrink
   every sheet of the book to fit it.) */
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
table td, table th { overflow-wrap: break-word; }
/* and a box that scrolls on screen would be printed whole on one sheet, cut off where it is
   taller: on paper it grows and breaks across sheets */
pre, div.highlight, .cell_input, .cell_output, .output, .output-figure,
.pst-scrollable-table-container { overflow: visible !important; max-height: none !important; }
.cell_input, div[class^="highlight"] { display: block !important; break-inside: auto !important; }
"""

# The fonts each language's book is printed in: installed ones, named, each covering every
# character the book prints (fonts-wqy-microhei has Latin as well as Chinese), with outlines
# unhinted (geometricPrecision): where Chromium found fonts by itself (the theme's stacks start
# with fonts this machine lacks) and hinted them, lines with code in them moved by a fraction of
# a point from one print to the next. (Some still did, in about one print in four of the Chinese
# book on a busy machine, until the books were typeset for paper; none has since, and two builds
# give the same bytes: docs/dev/decisions/0030-reproducible-books.md.)
FONTS = {
    "en": ("DejaVu Sans", "DejaVu Sans Mono"),
    "zh": ("WenQuanYi Micro Hei", "WenQuanYi Micro Hei Mono"),
}


def fonts_style(language: str) -> str:
    text, code = FONTS[language]
    return (
        f'html, body {{ font-family: "{text}", sans-serif !important; }}\n'
        f'code, pre, kbd, samp, tt, code *, pre * {{ font-family: "{code}", monospace !important; }}\n'
        "* { text-rendering: geometricPrecision !important; }\n"
    )


# Run in the page before printing: arguments {style, cover: [title, paragraphs...], base,
# edition ("student" or "teacher"), words: {folded, answers, answer, same}}.
PREPARE = """
({style, cover, base, edition, words}) => {
  const sheet = document.createElement("style");
  sheet.textContent = style;
  document.head.append(sheet);
  // Screen widgets and what the screen shows twice are left out: the printed text under a table
  // or diagram drawn from it, the operator reference's filter, a folded cell's code (a line
  // names its file instead).
  // (and a transcript's output beside another device's, when it is the output printed above)
  for (const shown of document.querySelectorAll(".device-comparison .device-output pre")) {
    const cell = shown.closest("div.cell");
    const printed = cell && cell.querySelector(".cell_output .stream pre, details.printed-output pre");
    if (printed && printed.textContent.trim() === shown.textContent.trim()) {
      const note = document.createElement("p");
      note.className = "book-folded";
      note.textContent = words.same;
      (shown.closest(".output") || shown).replaceWith(note);
    }
  }
  for (const widget of document.querySelectorAll("details.printed-output, form.op-filter")) {
    widget.remove();
  }
  // An output that prints a Markdown table among other lines, which the site shows as printed
  // (a cell that also raises, or warns): its table drawn, its other lines as they were.
  const cellsOf = (line) => line.trim().replace(/^\\|/, "").replace(/\\|$/, "").split("|")
    .map((cell) => cell.trim());
  for (const pre of document.querySelectorAll(".cell_output .stream pre")) {
    const lines = pre.textContent.replace(/\\n$/, "").split("\\n");
    if (!lines.some((line) => /^\\s*\\|.*\\|\\s*$/.test(line))) continue;
    const parts = [];
    for (const line of lines) {
      const row = /^\\s*\\|.*\\|\\s*$/.test(line);
      const last = parts[parts.length - 1];
      if (last && last.row === row) last.lines.push(line);
      else parts.push({row, lines: [line]});
    }
    pre.replaceWith(...parts.map((part) => {
      if (!part.row) {
        const text = document.createElement("pre");
        text.textContent = part.lines.join("\\n");
        return text;
      }
      const table = document.createElement("table");
      table.className = "output-table table";
      const rows = part.lines.filter((line) => !cellsOf(line).every((c) => /^:?-{3,}:?$/.test(c)));
      rows.forEach((line, n) => {
        const row = (n ? (table.tBodies[0] || table.createTBody()) : table.createTHead()).insertRow();
        for (const text of cellsOf(line)) {
          const cell = document.createElement(n ? "td" : "th");
          cell.textContent = text;
          row.append(cell);
        }
      });
      return table;
    }));
  }
  for (const fold of document.querySelectorAll("div.cell > details.hide")) {
    const file = fold.parentElement.querySelector(".snippet-meta code");
    const note = document.createElement("p");
    note.className = "book-folded";
    note.textContent = words.folded.replace("{file}", file ? file.textContent.trim() : "");
    fold.replaceWith(note);
  }
  for (const link of document.querySelectorAll("a[href]")) {
    const href = link.getAttribute("href");
    if (href.startsWith("#")) {
      // a label on another page of the site: singlehtml writes #document-<page>#<label>
      const second = href.indexOf("#", 1);
      if (second > 0) link.setAttribute("href", href.slice(second));
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      link.setAttribute("href", new URL(href, base).href);  // a download, or the site itself
    }
  }
  // Each page of the site starts a sheet; its anchor (#document-<page>, where links to it
  // lead) moves into it from just before it, so that it is on that sheet, not the one before.
  for (const anchor of document.querySelectorAll('span[id^="document-"]')) {
    const chapter = anchor.nextElementSibling;
    chapter.classList.add("book-chapter");
    chapter.prepend(anchor);
  }
  const heading = (section) => {
    const title = section.querySelector(
      ":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6");
    if (!title) return "";
    const copy = title.cloneNode(true);
    for (const mark of copy.querySelectorAll(".headerlink")) mark.remove();
    return copy.textContent.replace(/\\s+/g, " ").trim();
  };
  const home = document.querySelector("article.bd-article section[id]");
  // The exercises' answers: none in the students' edition; in the teachers', each moves to an
  // appendix after the last page, under its page's title, linked from where it was and back.
  const answers = [];
  for (const answer of document.querySelectorAll("details.exercise-answer")) {
    if (edition !== "teacher") {
      answer.remove();
      continue;
    }
    const cell = answer.closest("div.cell");
    const before = cell.previousElementSibling;
    const question = before && before.classList.contains("exercise-question") ? before : cell;
    const number = answers.length + 1;
    if (!question.id) question.id = `book-exercise-${number}`;
    const chapter = cell.closest(".book-chapter") || home;
    const label = question.querySelector("strong");
    answers.push({answer, id: `book-answer-${number}`, back: question.id, chapter,
                  label: label ? label.textContent.trim() : ""});
    const line = document.createElement("p");
    line.className = "book-answer-link";
    const link = document.createElement("a");
    link.href = `#book-answer-${number}`;
    link.textContent = words.answer;
    line.append(link);
    answer.replaceWith(line);
  }
  let appendix = null;
  if (answers.length) {
    appendix = document.createElement("section");
    appendix.id = "book-answers";
    appendix.className = "book-chapter book-appendix";
    const title = document.createElement("h1");
    title.textContent = words.answers;
    // a list of its parts first, linking each (and so giving each a place the outline leads to)
    const index = document.createElement("ul");
    appendix.append(title, index);
    let group = null;
    let current = null;
    for (const item of answers) {
      if (item.chapter !== current) {
        current = item.chapter;
        group = document.createElement("section");
        group.id = `book-answers-${index.children.length + 1}`;
        const entry = document.createElement("li");
        const to = document.createElement("a");
        to.href = `#${group.id}`;
        to.textContent = heading(current);
        entry.append(to);
        index.append(entry);
        const name = document.createElement("h2");
        const back = document.createElement("a");
        const anchor = current.querySelector(':scope > span[id^="document-"]');
        back.href = `#${anchor ? anchor.id : current.id}`;
        back.textContent = heading(current);
        name.append(back);
        group.append(name);
        appendix.append(group);
      }
      const entry = document.createElement("div");
      entry.id = item.id;
      entry.className = "book-answer";
      const line = document.createElement("p");
      const strong = document.createElement("strong");
      const back = document.createElement("a");
      back.href = `#${item.back}`;
      back.textContent = item.label;
      strong.append(back);
      line.append(strong);
      entry.append(line);
      for (const part of [...item.answer.children]) {
        if (part.tagName !== "SUMMARY") entry.append(part);
      }
      group.append(entry);
    }
    const chapters = document.querySelectorAll(".book-chapter");
    chapters[chapters.length - 1].after(appendix);
    const nav = document.querySelector("#jb-print-toc nav");
    const list = document.createElement("ul");
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#book-answers";
    link.textContent = words.answers;
    item.append(link);
    list.append(item);
    nav.append(list);
  }
  // The operator reference on landscape sheets, its kinds of input as one column of marks each
  // (the column whose every cell lists a few of at most 12 names).
  const reference = document.querySelector(".op-reference");
  if (reference) reference.closest(".book-chapter").classList.add("book-landscape");
  for (const table of document.querySelectorAll(".book-landscape .op-reference table")) {
    if (!table.tHead || table.tHead.rows.length !== 1) continue;
    const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
    const names = (cell) => cell.textContent.split(/[,，、]/).map((n) => n.trim())
      .filter((n) => n && n !== "-");
    const width = table.tHead.rows[0].cells.length;
    let column = -1;
    let kinds = [];
    for (let c = width - 1; c > 0 && column < 0; c -= 1) {
      const cells = rows.map((row) => row.cells[c]);
      if (cells.some((cell) => !cell || cell.children.length)) continue;
      const counts = new Map();
      for (const cell of cells) for (const n of names(cell)) counts.set(n, (counts.get(n) || 0) + 1);
      const listed = cells.reduce((sum, cell) => sum + names(cell).length, 0);
      if (counts.size >= 2 && counts.size <= 12 && listed >= 2 * cells.length) {
        column = c;
        kinds = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a));
      }
    }
    if (column < 0) continue;
    const head = table.tHead.rows[0];
    // each other column as wide as most of its cells' text needs (nine in ten of them), and
    // its heading's longest word; wider where some cells hold lists that depend on the input
    const needs = [...head.cells].map((cell, c) => {
      const cells = rows.map((row) => row.cells[c]).filter((cell) => cell);
      const lengths = cells.filter((cell) => !cell.querySelector("details"))
        .map((cell) => cell.textContent.trim().length).sort((a, b) => a - b);
      const most = lengths.length ? lengths[Math.floor(0.9 * (lengths.length - 1))] : 0;
      const longest = (text) => Math.max(...text.split(/\\s+/).map((w) => w.length));
      const word = Math.max(longest(cell.textContent), ...lengths.length ? cells
        .filter((cell) => !cell.querySelector("details")).map((c) => longest(c.textContent)) : []);
      const lists = cells.some((cell) => cell.querySelector("details")) ? 24 : 0;
      return Math.min(36, Math.max(14, most, word + 1, lists));
    });
    const mark = 1.4;  // % of the width, for each column of marks
    const room = 100 - mark * kinds.length;
    const total = needs.reduce((sum, need, c) => sum + (c === column ? 0 : need), 0);
    const group = document.createElement("colgroup");
    needs.forEach((need, c) => {
      for (let n = 0; n < (c === column ? kinds.length : 1); n += 1) {
        const col = document.createElement("col");
        col.style.width = `${c === column ? mark : ((room * need) / total).toFixed(2)}%`;
        group.append(col);
      }
    });
    if (table.caption) table.caption.after(group);
    else table.prepend(group);
    const marks = table.tHead.insertRow();
    for (const kind of kinds) {
      const th = document.createElement("th");
      th.className = "book-kind";
      th.scope = "col";
      th.textContent = kind;
      marks.append(th);
    }
    [...head.cells].forEach((cell, c) => {
      if (c === column) cell.colSpan = kinds.length;
      else cell.rowSpan = 2;
    });
    for (const row of rows) {
      const cell = row.cells[column];
      const has = new Set(names(cell));
      cell.replaceWith(...kinds.map((kind) => {
        const td = document.createElement("td");
        td.className = "book-mark";
        td.textContent = has.has(kind) ? "✓" : "";
        return td;
      }));
    }
  }
  for (const fold of document.querySelectorAll("details")) fold.open = true;
  const front = document.getElementById("jb-print-docs-body");
  const page = document.createElement("section");
  page.className = "book-cover";
  const title = document.createElement("h1");
  title.textContent = cover[0];
  page.append(title);
  for (const text of cover.slice(1)) {
    const line = document.createElement("p");
    line.textContent = text;
    page.append(line);
  }
  front.prepend(page);
  // A table or drawing wider than the sheet is drawn smaller to fit it (else Chromium would
  // shrink every sheet of the book to the widest one), by a multiple of 1/32: sizes that are
  // exact in binary fractions (with any factor, lines of a shrunk table moved by a fraction of
  // a point from one print to the next).
  for (const wide of document.querySelectorAll("article table, article .output-figure > *")) {
    if (wide.closest(".book-landscape")) continue;
    const room = wide.parentElement.clientWidth;
    if (wide.scrollWidth > room + 1) {
      wide.style.zoom = String(Math.floor((32 * room) / wide.scrollWidth) / 32);
    }
  }
  // The outline: the home page, then each page of the site, each with the sections directly
  // under its title (their ids, where the book's links lead, and their headings' text).
  const part = (section, id) => ({
    id,
    title: heading(section),
    sections: [...section.querySelectorAll(":scope > section[id]")]
      .filter((inner) => !inner.classList.contains("book-chapter"))
      .map((inner) => ({id: inner.id, title: heading(inner)})),
  });
  const outline = home ? [part(home, home.id)] : [];
  for (const chapter of document.querySelectorAll(".book-chapter:not(.book-appendix)")) {
    outline.push(part(chapter, chapter.querySelector(':scope > span[id^="document-"]').id));
  }
  if (appendix) outline.push(part(appendix, appendix.id));
  const entries = [];
  for (const link of document.querySelectorAll(
    '#jb-print-toc a[href^="#document-"], #jb-print-toc a[href="#book-answers"]')) {
    const title = document.createElement("span");
    title.className = "book-title";
    title.append(...link.childNodes);
    const number = document.createElement("span");
    number.className = "book-page";
    number.textContent = "000";
    link.append(title, number);
    entries.push(link.getAttribute("href").slice(1));
  }
  return {entries, outline};
}
"""

# After the page was changed for print: every font it now uses loaded and two frames drawn, so
# that the print lays out what the reader sees, the same every time.
SETTLED = """
async () => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  await document.fonts.ready;
}
"""

# Write the page numbers into the contents, and leave only the cover and the contents to print.
NUMBER = """
(pages) => {
  for (const link of document.querySelectorAll(
    '#jb-print-toc a[href^="#document-"], #jb-print-toc a[href="#book-answers"]')) {
    link.querySelector(".book-page").textContent = String(pages[link.getAttribute("href").slice(1)]);
  }
  const sheet = document.createElement("style");
  sheet.textContent =
    "article.bd-article { display: none !important; } #jb-print-toc { break-after: auto !important; }";
  document.head.append(sheet);
}
"""


def source_date() -> datetime.datetime:
    """The date a book says it was built on, and its PDF's creation date: SOURCE_DATE_EPOCH
    when set, else the time of the commit checked out (so that two builds of one commit make
    the same bytes, on any day), else 1 January 2026 outside a git checkout."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        commit = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=project.current().root,
            capture_output=True,
            text=True,
            check=False,
        )
        epoch = commit.stdout.strip() if commit.returncode == 0 else ""
    return datetime.datetime.fromtimestamp(int(epoch or 1767225600), tz=datetime.UTC)


# Chromium (Skia) writes the time of printing as the PDF's creation and modification dates.
PDF_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:(\d{14})[^)]*\)")
PDF_DATE_DIGITS = "%Y%m%d%H%M%S"


def dated(pdf: Path, when: datetime.datetime) -> None:
    """Write `when` as the PDF's creation and modification dates, in place of the time Chromium
    printed it at: the strings keep their length, so no offset of the file moves."""
    data = pdf.read_bytes()

    def stamp(match: re.Match) -> bytes:
        text = match.group(0)
        new = f"/{match.group(1).decode()} (D:{when:{PDF_DATE_DIGITS}}+00'00')".encode()
        return new if len(new) == len(text) else text

    pdf.write_bytes(PDF_DATE.sub(stamp, data))


def printed_date(pdf: Path) -> datetime.datetime:
    """The date `dated` wrote into the PDF: the source date it was printed with."""
    found = PDF_DATE.search(pdf.read_bytes())
    if not found:
        sys.exit(f"{pdf}: no creation date")
    digits = found.group(2).decode()
    return datetime.datetime.strptime(digits, PDF_DATE_DIGITS).replace(tzinfo=datetime.UTC)


# The editions printed of each language's book: the students' without the exercises' answers,
# the teachers' with them in an appendix.
EDITIONS = course_kit.EDITIONS


def book_name(language: str, edition: str) -> str:
    """An edition's file name below the language's folder of the site (and in the download menu):
    what-does-it-copy-<folder>-<edition>.pdf."""
    return course_kit.book_name(LANGUAGES[language].folder, edition)


def book_file(language: str, edition: str, out: Path | None = None) -> Path:
    """Where an edition of a language's book is printed: in the language's folder of the site
    built in `out` (default docs/_build)."""
    out = out or project.current().build
    return out / "html" / LANGUAGES[language].folder / book_name(language, edition)


def singlehtml(language: str, out: Path) -> Path:
    """The language's pages as one HTML document, in `<out>/book/<folder>/index.html`, from
    a copy of the site build's doctrees (nothing is read or executed again)."""
    lang = LANGUAGES[language]
    doctrees = out / "book" / "doctrees" / lang.folder
    target = out / "book" / lang.folder
    site_doctrees = out / "doctrees" / lang.folder
    if not (site_doctrees / "environment.pickle").exists():
        sys.exit(f"{site_doctrees} has no build: build the site first (python -m whatcopy build)")
    shutil.rmtree(doctrees, ignore_errors=True)
    shutil.copytree(site_doctrees, doctrees)
    command = build.sphinx_args(
        project.current().docs / lang.source,
        target,
        doctrees,
        *build.settings(out),
        jobs="1",
        quiet=True,
        builder="singlehtml",
    )
    result = subprocess.run(command, cwd=project.current().root, check=False)
    if result.returncode:
        sys.exit(f"the single-page build of docs/{lang.source} failed (see the messages above)")
    return target


def pdfinfo(pdf: Path, *options: str) -> str:
    return subprocess.run(
        ["pdfinfo", *options, str(pdf)], capture_output=True, text=True, check=True
    ).stdout


def destinations(pdf: Path) -> dict[str, int]:
    """The PDF's named destinations (the ids its links point at) and the page of each."""
    return page_numbers(places(pdf))


Place = tuple[int, float | None, float | None]  # page, and left and top when the view is XYZ


def places(pdf: Path) -> dict[str, Place]:
    """The PDF's named destinations and where each is: (page, left, top) for the view Chromium
    writes (`[ XYZ left top null ]`); (page, None, None) for any other view."""
    listed = pdfinfo(pdf, "-dests")
    found = {}
    for line in listed.splitlines():
        match = re.match(r'\s*(\d+)\s+\[(.*)\]\s+"(.*)"$', line)
        if match:
            page, view, name = match.groups()
            xyz = re.match(r"\s*XYZ\s+(\S+)\s+(\S+)", view)
            left, top = (float(xyz.group(1)), float(xyz.group(2))) if xyz else (None, None)
            found.setdefault(name, (int(page), left, top))
    return found


def page_numbers(where: dict[str, Place]) -> dict[str, int]:
    return {name: page for name, (page, _, _) in where.items()}


def missing_glyphs(pdf: Path) -> int:
    """How many runs of text in the PDF draw glyph 0, the .notdef box ("tofu") that Chromium
    draws for a character no font it has can show. Chromium writes text in CID fonts with
    Identity-H encoding, two bytes per glyph id, shown with Tj and TJ from Flate-compressed
    content streams."""
    data = pdf.read_bytes()
    runs = 0
    for start in re.finditer(rb"stream\r?\n", data):
        end = data.find(b"endstream", start.end())
        try:
            content = zlib.decompress(data[start.end() : end])
        except zlib.error:
            continue  # not a Flate stream of text: an image, a font
        if b"0000" not in content:
            continue  # (most streams: the search below is the slow part)
        for string in HEX_WITH_ZEROS.finditer(content):
            glyphs = string[1]
            if any(glyphs[i : i + 4] == b"0000" for i in range(0, len(glyphs), 4)) and shown(
                content, string
            ):
                runs += 1
    return runs


def shown(content: bytes, string: re.Match) -> bool:
    """Whether the hex string `string` of a content stream is text shown: the operand of Tj,
    or an element of the array that TJ shows."""
    if SHOWN_ALONE.match(content, string.end()):
        return True
    opening = content.rfind(b"[", 0, string.start())
    closing = content.find(b"]", string.end())
    return (
        opening != -1
        and closing != -1
        and content.find(b"]", opening, string.start()) == -1
        and SHOWN_IN_ARRAY.match(content, closing + 1) is not None
    )


# A hex string with 0000 in it (a candidate for glyph 0; each starts with "<", which the regex
# engine finds fast), and what follows a string that Tj shows, and the array that TJ shows.
HEX_WITH_ZEROS = re.compile(rb"<([0-9A-Fa-f]*0000[0-9A-Fa-f]*)>")
SHOWN_ALONE = re.compile(rb"\s*Tj")
SHOWN_IN_ARRAY = re.compile(rb"\s*TJ")


def footer(language: str, total: int | None = None) -> str:
    """Each sheet's "n / total" (`total`: written as given, for a print of the first sheets
    only, which replace those of the whole book)."""
    font = "'WenQuanYi Micro Hei', sans-serif" if language == "zh" else "sans-serif"
    of = '<span class="totalPages"></span>' if total is None else str(total)
    return (
        f'<div style="font: 8px {font}; width: 100%; text-align: center; color: #555;">'
        f'<span class="pageNumber"></span> / {of}</div>'
    )


def sheet_texts(pdf: Path, last: int | None = None) -> list[str]:
    """The text of each sheet (up to sheet `last`), as pdftotext reads it."""
    text = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", *(["-l", str(last)] if last else []), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return text.split("\f")[:-1]


def replace_first_sheets(
    whole: Path, first: Path, target: Path, outline: Sequence = (), local: str | None = None
) -> None:
    """Write to `target` the PDF `whole` with its first sheets drawn as those of `first`, each
    keeping its links (and everything else but what it draws and the fonts that draws with),
    and with `outline` as its bookmarks (`bookmarks`): an incremental update, which appends
    the new sheets' drawing and the outline to `whole`'s bytes. Links to addresses on the site
    `local` belongs to (LOCAL) are made relative to `local`, the book's folder."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit, NameObject, TextStringObject

    writer = PdfWriter(whole, incremental=True)
    for sheet, drawn in zip(writer.pages, PdfReader(first).pages):
        for key in ("/Contents", "/Resources"):
            sheet[NameObject(key)] = drawn.raw_get(key).clone(writer)
    if local:
        for sheet in writer.pages:
            for annotation in sheet.get("/Annots", []):
                action = annotation.get_object().get("/A")
                uri = action.get_object().get("/URI") if action is not None else None
                if uri is not None and str(uri).startswith(LOCAL):
                    relative = posixpath.relpath(str(uri)[len(LOCAL) :], local[len(LOCAL) :])
                    action.get_object()[NameObject("/URI")] = TextStringObject(relative)

    def add(items: list, parent=None) -> None:
        for title, (page, left, top), inner in items:
            fit = Fit.fit() if top is None else Fit.xyz(left, top)  # where the book's links lead
            item = writer.add_outline_item(
                title=title, page_number=page - 1, parent=parent, fit=fit
            )
            add(inner, item)

    add(list(outline))
    if outline:
        writer.page_mode = "/UseOutlines"  # a reader opens the book with its outline shown
    with target.open("wb") as out:
        writer.write(out)


def bookmarks(outline: list[dict], where: dict[str, Place]) -> list:
    """The outline PREPARE read from the page, as (title, place, [sections]), each section as
    (title, place, []): the places of the destinations the print has (`places`). A page or
    section the print has no destination for is an error: its bookmark would lead nowhere."""
    missing = [
        item["id"]
        for part in outline
        for item in [part, *part["sections"]]
        if item["id"] not in where or not item["title"]
    ]
    if missing:
        sys.exit(f"the printed book has no destination or title for the outline's {missing}")
    return [
        (
            part["title"],
            where[part["id"]],
            [(section["title"], where[section["id"]], []) for section in part["sections"]],
        )
        for part in outline
    ]


def print_books(
    language: str, folder: Path, targets: dict[str, Path], site_url: str | None
) -> dict[str, dict]:
    """Print the single-page build in `folder` as each edition in `targets` (edition: PDF), one
    after the other in one browser tab; return each edition's figures. Links that leave the
    book point at the site published at `site_url`, or else at the folder the book is printed
    into."""
    from playwright.sync_api import sync_playwright

    options = {
        "format": "A4",
        "print_background": True,
        "prefer_css_page_size": True,
        "display_header_footer": True,
        "header_template": "<span></span>",
        "footer_template": footer(language),
    }
    figures = {}
    with serving(folder) as address, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        # the width of the sheet inside its margins (A4: 210 - 2 x 14 mm), so that the
        # page is laid out before printing as it will be printed
        tab = browser.new_page(viewport={"width": 688, "height": 1000})
        tab.emulate_media(media="print")
        for number, (edition, target) in enumerate(targets.items()):
            tab.goto(f"{address}/index.html")
            tab.evaluate("document.fonts.ready.then(() => true)")
            prepared = tab.evaluate(PREPARE, preparation(language, site_url, edition))
            tab.evaluate(SETTLED)
            if number == 0:
                # A first print, of the first sheet only, lays out the whole book once: a font
                # Chromium loads on the way is then loaded when the book is printed (one print
                # alone differed from the next by a fraction of a point in a few lines, on a
                # busy machine). The next edition, in the same tab, finds the fonts loaded: it
                # prints the same bytes as after a first print of its own (decision 0030).
                tab.pdf(**options, page_ranges="1")
            figures[edition] = print_prepared(
                tab, prepared, options, language, folder, target, site_url
            )
        browser.close()
    for target in targets.values():
        tofu = missing_glyphs(target)
        if tofu:
            target.unlink()
            sys.exit(f"{target}: {tofu} runs of text have characters no installed font has (tofu)")
    return figures


def preparation(language: str, site_url: str | None, edition: str) -> dict:
    """What PREPARE is given to make the page the `edition`'s book: its style, cover lines,
    the address links leave to and the words it writes."""
    lang = LANGUAGES[language]
    words = catalog(lang.sphinx)
    date = source_date().date()
    cover = [words.gettext(TITLE), words.gettext(SUBTITLE)]
    cover.append(words.gettext(BUILT).format(date=date.isoformat()))
    if site_url:
        cover.append(words.gettext(ONLINE).format(url=f"{site_url}{lang.folder}/"))
    # the colophon's credit line for the CC BY text, as the site's footer and the kit say it
    published = site_url or project.pages_url(project.repository())
    cover.append(course_kit.attribution_line(lang.sphinx, f"{published}{lang.folder}/"))
    cover.append(words.gettext(EDITION_LINES[edition]))
    return {
        "style": STYLE + fonts_style(language),
        "cover": cover,
        "base": f"{site_url or LOCAL}{lang.folder}/",
        "edition": edition,
        "words": {
            "folded": words.gettext(FOLDED),
            "answers": words.gettext(ANSWERS),
            "answer": words.gettext(ANSWER_LINK),
            "same": words.gettext(SAME),
        },
    }


def print_prepared(
    tab, prepared: dict, options: dict, language: str, folder: Path, target: Path, site_url
) -> dict:
    """Print the page PREPARE made a book of in `tab` to `target`: once whole, to find where
    each part starts, then its cover and contents again with those page numbers written in,
    which replace the first sheets. Return the book's figures."""
    entries = prepared["entries"]
    if not entries:
        sys.exit(f"{folder}/index.html: no table of contents to print the book with")
    with tempfile.TemporaryDirectory() as tmp:
        draft, front = Path(tmp) / "draft.pdf", Path(tmp) / "front.pdf"
        tab.pdf(path=str(draft), **options)
        where = places(draft)
        pages = page_numbers(where)
        outline = bookmarks(prepared["outline"], where)
        missing = [entry for entry in entries if entry not in pages]
        if missing:
            sys.exit(f"the printed book has no destination for {missing}")
        numbers = {entry: pages[entry] for entry in entries}
        total = int(re.search(r"^Pages:\s+(\d+)", pdfinfo(draft), re.MULTILINE).group(1))
        tab.evaluate(NUMBER, numbers)
        tab.pdf(path=str(front), **{**options, "footer_template": footer(language, total)})
        new = sheet_texts(front)
        old = sheet_texts(draft, len(new))

        # as many sheets as the cover and contents took (the first page of the site starts
        # on the sheet after them: the first destination past the cover's), with the same
        # lines but for the digits written in ("000" before)
        def digitless(sheets: list[str]) -> list[str]:
            return [re.sub(r"\d+", "#", sheet) for sheet in sheets]

        front_sheets = min(n for n in pages.values() if n > 1) - 1
        if len(new) != front_sheets or digitless(old) != digitless(new):
            lines = zip(
                "\f".join(digitless(old)).splitlines(), "\f".join(digitless(new)).splitlines()
            )
            first = next(((a, b) for a, b in lines if a != b), None)
            sys.exit(
                f"{target}: the cover and contents, printed again with their page numbers, "
                f"are not the first {front_sheets} sheets of the book with other digits "
                f"({len(new)} sheets; first line that differs, before and after: {first})"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        dated(draft, source_date())
        here = None if site_url else LOCAL + LANGUAGES[language].folder + "/"
        replace_first_sheets(draft, front, target, outline, here)
    if destinations(target) != pages:
        sys.exit(f"{target}: its pages' destinations moved when the contents were written in")
    return {"pages": numbers, "sheets": total, "bytes": target.stat().st_size}


def make_books(
    languages: list[str], out: Path | None = None, site_url: str | None = None
) -> dict[str, list[Path]]:
    """Each language's books, one per edition, printed unless nothing they are made of changed
    (`book_inputs`; checked here first, so that a build that changed nothing starts no printer);
    two or more languages to print are printed at the same time, one process each (each is
    mostly one busy process, Sphinx's and then Chromium's)."""
    out = out or project.current().build
    made = {language: [book_file(language, e, out) for e in EDITIONS] for language in languages}
    todo = []
    for language in languages:
        site = out / "html" / LANGUAGES[language].folder
        if unchanged(record_file(language, out), book_inputs(site, site_url), site, **FILES):
            print(f"book {language}: {', '.join(p.name for p in made[language])} unchanged")
        else:
            todo.append(language)
    if len(todo) > 1:
        runs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "whatcopy",
                    "book",
                    "--out",
                    str(out),
                    *(["--site-url", site_url] if site_url else []),
                    language,
                ],
                cwd=project.current().root,
            )
            for language in todo
        ]
        codes = [run.wait() for run in runs]  # every one, not only up to a failure
        if any(codes):
            sys.exit("a book was not made (see the messages above)")
        return made
    for language in todo:
        started = time.perf_counter()
        site = out / "html" / LANGUAGES[language].folder
        figures = {}

        def make(language=language, site=site, figures=figures) -> None:
            folder = singlehtml(language, out)
            # the one file of the single edition, before editions: not left beside them
            (site / f"what-does-it-copy-{LANGUAGES[language].folder}.pdf").unlink(missing_ok=True)
            targets = {edition: book_file(language, edition, out) for edition in EDITIONS}
            figures.update(print_books(language, folder, targets, site_url))

        inputs = book_inputs(site, site_url)
        if unless_unchanged(record_file(language, out), inputs, site, make, **FILES):
            sizes = ", ".join(
                f"{book_name(language, e)} {len(f['pages'])} parts, {f['sheets']} sheets, "
                f"{f['bytes'] / 1e6:.1f} MB"
                for e, f in figures.items()
            )
            print(f"book {language}: {sizes}, in {time.perf_counter() - started:.1f} s")
        else:
            print(f"book {language}: {', '.join(p.name for p in made[language])} unchanged")
    return made


# The files a language's books are: its editions, in its folder of the site (not the downloads).
FILES = {"pattern": "what-does-it-copy-*-*.pdf", "skip": ("downloads",)}


def record_file(language: str, out: Path) -> Path:
    """What the language's books were last made of (incremental.unless_unchanged's record)."""
    return out / "book" / f"{LANGUAGES[language].folder}.json"


def book_inputs(site: Path, site_url: str | None) -> str:
    """What a language's book is made of: the language's built pages (their HTML, stylesheets
    and scripts, which a build writes the same for the same sources; the books and the
    downloads left out, and Sphinx's `.buildinfo`, a hash of settings that include absolute
    folders, which differs in a copy of the project), the published address and the date it
    says."""
    files = [
        path
        for path in site.rglob("*")
        if path.is_file()
        and path.suffix != ".pdf"
        and path.name != ".buildinfo"
        and path.relative_to(site).parts[0] != "downloads"
    ]
    return digest_of(f"book {site_url} {source_date().isoformat()}", files, site)
