"""Page sources: both languages in step, prose tied to outputs, Chinese written to the style.

These read docs/en and docs/zh only; they need no build.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from project import DOCS, ROLE, SNIPPETS, Page, all_pages, pages

from whatcopy.sphinxext.site_languages import read_terms

TWINS = [(en, zh) for en in pages("en") for zh in pages("zh") if zh.docname == en.docname]
CODE_SPAN = re.compile(r"(?<![}`])`([^`]+)`")
# An inline code span that states what a program printed: it must come from a role instead.
OUTPUT_VALUE = re.compile(
    r"^(True|False|None|-?\d+(\.\d+)?|tensor\(.*|\w*(Error|Exception|Warning)"
    r"|[\w.]+\s*(==?|:)\s*(True|False|None|-?\d+(\.\d+)?|tensor\(.*))$"
)
HAN = "\u4e00-\u9fff"


def test_every_page_has_a_twin_in_the_other_language():
    en = {p.docname for p in pages("en")}
    zh = {p.docname for p in pages("zh")}
    assert en, "no pages found under docs/en"
    problems = [f"docs/en/{d}.md has no Chinese twin docs/zh/{d}.md" for d in sorted(en - zh)]
    problems += [f"docs/zh/{d}.md has no English twin docs/en/{d}.md" for d in sorted(zh - en)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("en, zh", TWINS, ids=[en.docname for en, _ in TWINS])
def test_twins_run_the_same_cells_with_identical_options(en, zh):
    """Identical cells let the Chinese build reuse the English execution, output for output."""
    en_cells = [(c.options, c.body) for c in en.cells()]
    zh_cells = [(c.options, c.body) for c in zh.cells()]
    assert en_cells == zh_cells, (
        f"{zh.rel} must have the same code cells, in the same order and with the same options, "
        f"as {en.rel}:\n  en: {[c.load for c in en.cells()]}\n  zh: {[c.load for c in zh.cells()]}"
    )


@pytest.mark.parametrize("en, zh", TWINS, ids=[en.docname for en, _ in TWINS])
def test_twins_have_the_same_section_labels(en, zh):
    """Labels are the anchors the language switcher and cross-references land on."""
    assert en.labels() == zh.labels(), (
        f"{en.rel} and {zh.rel} must declare the same (label)= targets in the same order:\n"
        f"  en: {en.labels()}\n  zh: {zh.labels()}"
    )


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_a_page_is_a_notebook_exactly_when_it_has_code(page):
    """A kernelspec without code cells would make myst-nb read a plain page as a notebook."""
    is_notebook = "kernelspec" in page.front_matter()
    assert is_notebook == bool(page.cells()), (
        f"{page.rel}: {'remove the file_format/kernelspec front matter' if is_notebook else 'add the file_format: mystnb and kernelspec front matter'}"
    )


def test_every_section_has_a_label():
    problems = []
    for page in all_pages():
        lines = page.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if re.match(r"^#{1,3} ", line) and not (
                number > 1 and re.match(r"^\(.+\)=$", lines[number - 2])
            ):
                problems.append(f"{page.rel}:{number}: heading without a (label)= line above it")
    assert not problems, "\n".join(problems)


def test_every_snippet_is_on_a_page_and_every_loaded_snippet_exists():
    loaded = {}
    problems = []
    for page in all_pages():
        for cell in page.cells():
            if cell.load is None:
                problems.append(f"{page.rel}:{cell.line}: a code cell must :load: a snippet file")
                continue
            path = (page.path.parent / cell.load).resolve()
            if not path.is_file():
                problems.append(f"{page.rel}:{cell.line}: snippet not found: {cell.load}")
            loaded[path] = page.rel
    for snippet in sorted(SNIPPETS.rglob("*.py")):
        if snippet not in loaded:
            problems.append(f"{snippet.relative_to(DOCS.parent)} is not loaded by any page")
    assert not problems, "\n".join(problems)


def hand_typed_values(page) -> list[str]:
    problems = []
    for number, line in page.prose_lines():
        for span in CODE_SPAN.findall(line):
            if OUTPUT_VALUE.match(span.strip()):
                problems.append(
                    f"{page.rel}:{number}: `{span}` looks like an output typed by hand; quote it "
                    "with {out}`snippet:label` or {error}`snippet`"
                )
    return problems


def _chinese_prose(page):
    for number, line in page.prose_lines():
        # Inline code, roles and link targets are not Chinese text; a role whose text is Chinese
        # (a {term} of the Chinese glossary) reads as that text.
        text = re.sub(
            r"\{\w+\}`([^`]*)`",
            lambda m: m.group(1).split("<")[0] if re.search(f"[{HAN}]", m.group(1)) else "\u0001",
            line,
        )
        text = re.sub(r"`[^`]*`", "\u0001", text)
        text = re.sub(r"\]\([^)]*\)", "]", text)
        yield number, line, text


TYPOGRAPHY = [
    (
        re.compile(rf"[{HAN}][A-Za-z0-9\u0001]|[A-Za-z0-9\u0001)][{HAN}]"),
        "needs a space between Chinese and Latin text or code",
    ),
    (
        re.compile(rf"[{HAN}][,.:;!?()]|[,:;!?(][{HAN}]"),
        "uses ASCII punctuation in a Chinese sentence (，。：；！？（） are full-width)",
    ),
    (
        re.compile(rf"[{HAN}] +[，。：；！？、）]|（ +[{HAN}]"),
        "has a space before full-width punctuation",
    ),
]


def typography_problems(page) -> list[str]:
    problems = []
    for number, _, text in _chinese_prose(page):
        for pattern, message in TYPOGRAPHY:
            for match in pattern.finditer(text):
                shown = match.group(0).replace("\u0001", "`…`")
                problems.append(f"{page.rel}:{number}: {message}: {shown}")
    return problems


VARIANT = re.compile(r"^(?P<word>[^\[\],]+)(?:\[(?P<inside>[^\[\]]+)\])?$")


def variant_hits(variant: str, text: str) -> tuple[str, int]:
    """A variant from docs/terms.tsv's avoid column: the word to avoid, and how often text uses
    it. A variant written word[longer,longer] does not count inside those longer words:
    拷贝[深拷贝,浅拷贝] counts 拷贝 in 先拷贝一份, not in 深拷贝 (docs/terms.tsv's header)."""
    match = VARIANT.match(variant)
    if not match:
        raise ValueError(f"docs/terms.tsv: cannot read the variant {variant!r}")
    word, covered = match["word"], set()
    for longer in filter(None, (match["inside"] or "").split(",")):
        offset = longer.find(word)
        if offset < 0:
            raise ValueError(f"docs/terms.tsv: {variant!r}: {longer!r} does not contain {word!r}")
        covered |= {m.start() + offset for m in re.finditer(re.escape(longer), text)}
    starts = [m.start() for m in re.finditer(re.escape(word), text)]
    return word, len([start for start in starts if start not in covered])


def glossary_problems(page) -> list[str]:
    lines = list(_chinese_prose(page))
    prose = "\n".join(text for _, _, text in lines)
    terms = read_terms()
    # the glossary names each term in English too, on the line under the Chinese one
    english = {term["english"] for term in terms} if page.path.stem == "glossary" else set()
    problems = []
    for term in terms:
        for variant in filter(None, term["avoid"].split("|")):
            for number, _, text in lines:
                if text.strip() in english:
                    continue
                word, hits = variant_hits(variant, text)
                if hits:
                    problems.append(
                        f"{page.rel}:{number}: writes {word}; the site's term is {term['chinese']}"
                    )
        first = prose.find(term["chinese"])
        if term["introduce"] == "yes" and first >= 0 and page.path.stem != "glossary":
            after = prose[first + len(term["chinese"]) :][: len(term["english"]) + 2]
            if not after.lower().startswith(f"（{term['english'].lower()}"):
                problems.append(
                    f"{page.rel}: the first {term['chinese']} on the page should read "
                    f"{term['chinese']}（{term['english']}）"
                )
    return problems


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_prose_quotes_outputs_only_through_roles(page):
    """A value typed by hand can go stale; {out} and {error} take it from the executed cell."""
    problems = hand_typed_values(page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", pages("zh"), ids=lambda p: p.rel)
def test_chinese_typography(page):
    """A space between Chinese and Latin letters, digits or code; full-width punctuation."""
    problems = typography_problems(page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", pages("zh"), ids=lambda p: p.rel)
def test_chinese_pages_use_the_glossary_terms(page):
    """One Chinese word per concept (docs/terms.tsv), with the English at its first use."""
    problems = glossary_problems(page)
    assert not problems, "\n".join(problems)


def split_roles(page) -> list[str]:
    """Roles in a table row whose text holds an unescaped |: the table ends the cell there,
    even inside backticks (GFM), so the page shows the role's source in two cells and the build
    never checks it (a {claim}`id|except kinds` in the cheat sheet did this unnoticed)."""
    return [
        f"{page.rel}:{number}: {match[0]} is cut in two by the table; write \\| for the |"
        for number, line in enumerate(page.text.splitlines(), start=1)
        if line.lstrip().startswith("|")
        for match in ROLE.finditer(line)
        if re.search(r"(?<!\\)\|", match["text"])
    ]


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_a_role_in_a_table_row_writes_its_bar_escaped(page):
    problems = split_roles(page)
    assert not problems, "\n".join(problems)


def test_an_unescaped_bar_splits_the_cell_and_the_lint_sees_it(tmp_path):
    """The parser MyST uses ends the cell at a role's bare | (the rest of the row is lost to
    the table's two columns), and keeps the role whole when it is written \\|; the lint reports
    the first row only."""
    from markdown_it import MarkdownIt

    bare = "| a | {claim}`x.y|except z` |"
    escaped = "| a | {claim}`x.y\\|except z` |"
    parser = MarkdownIt("commonmark").enable("table")

    def cells(row: str) -> list[str]:
        tokens = parser.parse(f"| h | i |\n| --- | --- |\n{row}\n")
        body = tokens[[t.type for t in tokens].index("tbody_open") :]
        return [t.content for t in body if t.type == "inline"]

    assert cells(bare) == ["a", "{claim}`x.y"]
    assert cells(escaped) == ["a", "{claim}`x.y|except z`"]
    path = tmp_path / "en" / "table.md"
    path.parent.mkdir()
    path.write_text(f"| h | i |\n| --- | --- |\n{bare}\n{escaped}\n", encoding="utf-8")
    assert [p.split(": ")[0].rsplit("/", 2)[-2:] for p in split_roles(Page("en", path))] == [
        ["en", "table.md:3"]
    ]


BAD_PAGE = """---
file_format: mystnb
---
梯度是 `tensor([4., 4., 4.])`，结果为 `True`，抛出 `RuntimeError`。
调用detach()之后,共有 3个元素 。
这里用的是就地操作，还有计算图。
"""


def test_the_page_lints_catch_known_mistakes(tmp_path):
    """Each lint above reports a page written against it (so a silent lint cannot pass)."""
    (tmp_path / "zh").mkdir()
    path = tmp_path / "zh" / "bad.md"
    path.write_text(BAD_PAGE, encoding="utf-8")
    page = Page("zh", path)
    values = hand_typed_values(page)
    assert [v.split("`")[1] for v in values] == ["tensor([4., 4., 4.])", "True", "RuntimeError"]
    typography = "\n".join(typography_problems(page))
    for fragment in ["用d", ")之", "后,", "3个", "素 。"]:
        assert fragment in typography.replace("`…`", ""), (fragment, typography)
    glossary = "\n".join(glossary_problems(page))
    assert "writes 就地操作" in glossary and "计算图（computational graph）" in glossary


def test_a_variant_counts_only_outside_the_words_it_is_allowed_in(tmp_path):
    """拷贝[深拷贝,浅拷贝] in docs/terms.tsv: 拷贝 on its own is flagged, inside 深拷贝 it is not."""
    assert variant_hits("拷贝[深拷贝,浅拷贝]", "先拷贝一份，再做深拷贝和浅拷贝。") == ("拷贝", 1)
    assert variant_hits("batch[（batch）]", "每个批次（batch）都要分离。") == ("batch", 0)
    assert variant_hits("batch[（batch）]", "每个 batch 都要分离。") == ("batch", 1)
    with pytest.raises(ValueError, match="does not contain"):
        variant_hits("拷贝[复制]", "")
    (tmp_path / "zh").mkdir()
    path = tmp_path / "zh" / "copies.md"
    path.write_text(
        "---\nfile_format: mystnb\n---\n深拷贝（deep copy）不带历史。\n这份拷贝是克隆的。\n",
        encoding="utf-8",
    )
    page = Page("zh", path)
    assert glossary_problems(page) == [
        f"{page.rel}:5: writes 拷贝; the site's term is 副本",
        f"{page.rel}:5: writes 克隆的; the site's term is 副本",
    ]


def test_every_chinese_page_matches_the_current_english_page():
    """docs/zh pages record which version of their English twin they match (translation_of)."""
    from whatcopy.content import translations

    outdated = translations.problems()
    assert not outdated, "Chinese pages behind their English twin:\n" + "\n".join(outdated)


def test_an_edited_english_page_makes_its_twin_outdated(tmp_path, monkeypatch):
    from whatcopy import project
    from whatcopy.content import translations

    docs = tmp_path / "docs"
    (docs / "en").mkdir(parents=True)
    (docs / "zh").mkdir()
    (docs / "en" / "p.md").write_text("# Page\n")
    (docs / "zh" / "p.md").write_text("---\nfile_format: mystnb\n---\n# 页面\n")
    previous = project.use(tmp_path)
    try:
        edited_english_page_outdates_its_twin(translations, docs, monkeypatch)
    finally:
        project.use(previous.root)


def edited_english_page_outdates_its_twin(translations, docs, monkeypatch):
    assert "no `translation_of:`" in translations.problems()[0]
    monkeypatch.chdir(docs.parent)  # the path as `nox -s translations -- mark` is given it
    translations.mark(Path("docs/zh/p.md"))
    assert translations.problems() == []
    # written quoted, so that an all-digit version stays a string when YAML reads it
    marked = (docs / "zh" / "p.md").read_text()
    assert 'translation_of: "' in marked and marked.endswith("# 页面\n"), marked
    (docs / "zh" / "q.md").write_text("---\ntranslation_of: 123456789012\n---\n# 页面\n")
    (docs / "en" / "q.md").write_text("# Page\n")
    monkeypatch.setattr(translations, "english_version", lambda english: "123456789012")
    assert "docs/zh/q.md: `translation_of:` is read as a number; quote it (mark does)" in (
        translations.problems()
    )
    (docs / "en" / "p.md").write_text("# Page, edited\n")
    assert "bring it up to date" in translations.problems()[0]


def glossary_entries(language: str) -> list[list[str]]:
    """Each entry of the {glossary} on docs/<language>/glossary.md: its term lines."""
    text = (DOCS / language / "glossary.md").read_text(encoding="utf-8")
    block = text.split("```{glossary}", 1)[1].split("\n```", 1)[0]
    entries, current = [], []
    for line in block.splitlines():
        if line and not line.startswith((" ", ":")):
            current.append(line.strip())
        elif current:
            entries.append(current)
            current = []
    return entries + ([current] if current else [])


def test_the_glossary_defines_every_term_in_both_languages():
    en = [[t.lower() for t in entry] for entry in glossary_entries("en")]
    zh = glossary_entries("zh")
    problems = []
    for term in read_terms():
        if not any(entry[0] == term["english"].lower() for entry in en):
            problems.append(f"docs/en/glossary.md: no entry {term['english']!r}")
        if not any(entry[0] == term["chinese"] and term["english"] in entry for entry in zh):
            problems.append(
                f"docs/zh/glossary.md: no entry {term['chinese']!r} with {term['english']!r} "
                "on the line below it"
            )
    assert not problems, "\n".join(problems)


READER_PAGE = (
    "---\nfile_format: mystnb\nkernelspec:\n  name: python3\n---\n# T\n\n"
    "```{code-cell} python\n:load: ../../snippets/detach/stops_gradient.py\n```\n\n"
    "text\n\n````{code-cell} python\n:load: missing.py\n:tags: [raises-exception, x]\n````\n\n"
    "```{code-cell} python\nprint(1)\n```\n"
)


def test_the_page_reader_gives_front_matter_and_each_code_cell_with_its_line():
    """whatcopy.content.pages (myst-nb's reader) is what the extensions, the course kit and these tests
    read cells with: fence lines, :load: values, resolved paths, tags, code."""
    from whatcopy.content import pages as reader

    path = DOCS / "en" / "reader-test.md"  # not written: the reader is given the text
    page = reader.read(path, READER_PAGE)
    assert page.metadata["kernelspec"]["name"] == "python3"
    assert page.metadata["file_format"] == "mystnb"
    assert [c.line for c in page.cells] == [8, 14, 19]
    first, missing, inline = page.cells
    assert first.load == "../../snippets/detach/stops_gradient.py"
    assert first.path == SNIPPETS / "detach" / "stops_gradient.py"
    assert first.body == first.path.read_text(encoding="utf-8")
    assert first.tags == []
    assert missing.tags == ["raises-exception", "x"]
    assert missing.body == "" and not missing.path.exists()  # read on; the caller reports it
    assert inline.load is None and inline.path is None and inline.body == "print(1)"
    assert reader.read(path, "# No front matter\n").metadata == {}


def test_the_page_reader_names_the_page_and_line_of_a_cell_it_cannot_read():
    from whatcopy.content import pages as reader

    broken = READER_PAGE.replace(":tags: [raises-exception, x]", ":tags: [raises-exception")
    with pytest.raises(reader.PageError) as error:
        reader.read(DOCS / "en" / "broken.md", broken)
    message = str(error.value)
    assert message.startswith(f"{DOCS / 'en' / 'broken.md'}: ") and "line 14" in message, message


def test_the_recorders_core_does_not_import_the_page_reader():
    """whatcopy.content.pages imports myst-nb; the recorder runs on a bare GPU machine with torch only."""
    import subprocess
    import sys

    core = "whatcopy.core.transcripts, whatcopy.core.snippets, whatcopy.core.transcript_format"
    core += ", whatcopy.core.child, whatcopy.core.runner"
    heavy = ("myst", "whatcopy.content.pages", "yaml")
    probe = f"import sys, {core}; print(sorted(m for m in sys.modules if m.startswith({heavy})))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", f"the recorder's core imports {result.stdout.strip()}"


def test_fenced_blocks_are_read_as_myst_reads_them():
    """whatcopy.content.pages.fences (MyST's parser): only the outermost fences count (a code
    fence inside a directive is its body), colon fences too, an unclosed fence runs to the end,
    and an indented one is not at the top."""
    from whatcopy.content.pages import fences

    text = (
        "Prose.\n"  # 0
        "````{note}\n"  # 1
        "```python\n"
        "x = 1\n"
        "```\n"
        "````\n"  # 5
        ":::{on-cuda} name\n"  # 6
        "GPU words.\n"
        ":::\n"  # 8
        "   ```\n"  # 9: indented, not at the first column
        "   indented\n"
        "   ```\n"
        "```{code-cell} python\n"  # 12: never closed
        "print(1)\n"
    )
    found = [(f.start, f.end, f.marker, f.directive, f.closed) for f in fences(text)]
    assert found == [
        (1, 6, "````", "{note}", True),
        (6, 9, ":::", "{on-cuda}", True),
        (12, 14, "```", "{code-cell}", False),
    ], found
    assert fences(text)[0].body == "```python\nx = 1\n```\n"
