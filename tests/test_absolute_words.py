"""Absolute words carry their evidence.

A sentence that says "always", "only", "never", 都, 只 ... speaks of a whole range of inputs. On
this site such a sentence must stand in a paragraph that cites executed evidence: an {out} or
{error} value, a {claim} citation (a claim checked on every kind of input, whose scope the build
checks: whatcopy/sphinxext/claims.py), or a link to a labelled section that has an executed code
cell. The words, the
uses of them that are not claims, and the few sentences excused are in tests/absolute_words.yaml.

A paragraph here is a block of prose between blank lines, a list item, a table row or a heading.
A paragraph that leads straight into an executed cell, or reads the output of the cell just above
it, cites that cell; a heading is backed when
its own section has an executed cell, and a heading that asks a question claims nothing. Code, roles' text, link targets,
quotations (someone else's words) and {on-cuda} boxes (which cite their CUDA snippet) are left
out of the search.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest
import yaml
from project import DOCS, LABEL, Page, all_pages, site_sections

from whatcopy.content.pages import fences

DATA = Path(__file__).with_name("absolute_words.yaml")

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
EVIDENCE_ROLE = re.compile(r"\{(?:out|error|claim)\}`[^`]+`")
LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]*)\)")
REF = re.compile(r"\{ref\}`(?:[^`<]*<)?(?P<label>[\w-]+)>?`")
# Directives whose body a reader reads as this site's own prose (exercises ask, not claim).
PROSE_BODIES = {"{answer}", "{note}", "{tip}", "{warning}", "{admonition}", "{glossary}"}


@functools.cache
def rules() -> dict:
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))


def word_pattern(language: str) -> re.Pattern:
    words = sorted(rules()["words"][language], key=len, reverse=True)
    if language == "en":
        return re.compile(
            r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.IGNORECASE
        )
    return re.compile("(" + "|".join(map(re.escape, words)) + ")")


@dataclasses.dataclass
class Block:
    line: int
    text: str  # the source lines of the block, joined
    heading_level: int = 0  # a heading's level, 0 for other blocks
    section_label: str | None = None  # for a heading: the label just above it
    introduces_cell: bool = False  # the next thing on the page is an executed code cell
    reads_cell: bool = False  # the thing just before it on the page is an executed code cell


def blocks(page_text: str) -> list[Block]:
    """The prose blocks of a page, each with the line it starts on."""
    lines = page_text.splitlines()
    found: list[Block] = []
    current: Block | None = None
    # line index -> the fenced block it is part of, as MyST's parser reads the page
    fenced = {i: f for f in fences(page_text) for i in range(f.start, f.end)}
    closing = {f.closing: f for f in fences(page_text) if f.closed}
    last_label = None
    start = 0
    if lines and lines[0].strip() == "---":
        start = next(i for i in range(1, len(lines)) if lines[i].strip() == "---") + 1

    def close():
        nonlocal current
        if current is not None and current.text.strip():
            found.append(current)
        current = None

    def next_is_cell(index):
        following = next((later for later in lines[index + 1 :] if later.strip()), "")
        return following.startswith("```{code-cell}")

    def follows_cell(index):
        """The first line of a block at `index` comes right after a code cell's closing fence."""
        before = [i for i in range(index) if lines[i].strip()]
        fence = closing.get(before[-1]) if before else None
        return fence is not None and fence.directive == "{code-cell}"

    for index in range(start, len(lines)):
        line, number = lines[index], index + 1
        if fence := fenced.get(index):
            if index in (fence.start, fence.closing):
                close()
            elif fence.directive in PROSE_BODIES and not line.startswith(":"):
                if not line.strip():
                    close()
                elif current is None:
                    current = Block(number, line)
                else:
                    current.text += "\n" + line
            continue
        if label := LABEL.match(line):
            close()
            last_label = label.group("label")
            continue
        if not line.strip() or line.startswith(("%", "<")):
            close()
            continue
        if heading := HEADING.match(line):
            close()
            found.append(Block(number, heading.group(2), len(heading.group(1)), last_label))
            last_label = None
            continue
        last_label = None
        if line.startswith("|") or ITEM.match(line):
            close()
            current = Block(number, line)
            continue
        if current is None:
            current = Block(number, line)
        else:
            current.text += "\n" + line
    close()
    for block in found:
        last = block.line - 1 + block.text.count("\n")
        block.introduces_cell = next_is_cell(last)
        block.reads_cell = follows_cell(block.line - 1)
    return found


@functools.cache
def executed_sections() -> frozenset[str]:
    """The labels, on any page, whose section contains an executed code cell (the sections the
    seed ledger's evidence must name, too)."""
    return frozenset(
        label
        for language in ("en", "zh")
        for label, (_, info) in site_sections(language).items()
        if info["heading"] and info["cell"]
    )


def cites_evidence(text: str) -> bool:
    if EVIDENCE_ROLE.search(text):
        return True
    labels = [m.group("label") for m in REF.finditer(text)]
    labels += [
        m.group("target").split("#", 1)[1] for m in LINK.finditer(text) if "#" in m.group("target")
    ]
    return any(label in executed_sections() for label in labels)


QUOTED = re.compile(r'"[^"\n]*"|“[^”]*”|「[^」]*」')


def searched_text(text: str, language: str) -> str:
    """The words of a block that are this site's own claims."""
    text = re.sub(
        r"\{\w+\}`([^`]*)`", lambda m: m.group(1) if m.group(0).startswith("{term}") else " ", text
    )
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = QUOTED.sub(" ", text)
    for phrase in rules()["phrases"][language]:
        text = re.sub(re.escape(phrase["text"]), " ", text, flags=re.IGNORECASE)
    return text


SENTENCE_END = {"en": re.compile(r"(?<=[.!?:;])\s+"), "zh": re.compile(r"(?<=[。！？；：])")}


def excused(page: Page, sentence: str) -> bool:
    return any(
        page.rel.endswith(entry["page"]) and " ".join(sentence.split()).startswith(entry["start"])
        for entry in rules()["sentences"] or []
    )


def unbacked_sentences(page: Page, text: str | None = None) -> list[str]:
    """file:line: sentence, for each sentence with an absolute word whose paragraph cites no
    evidence."""
    language = "en" if page.language == "en" else "zh"
    pattern = word_pattern(language)
    problems = []
    for block in blocks(page.text if text is None else text):
        if block.heading_level:
            if block.section_label in executed_sections() or block.text.rstrip().endswith("?"):
                continue  # a section that shows its own evidence, or a question
        elif block.introduces_cell or block.reads_cell or cites_evidence(block.text):
            continue
        for sentence in SENTENCE_END[language].split(block.text):
            words = pattern.findall(searched_text(sentence, language))
            if words and not excused(page, sentence):
                offset = block.text[: block.text.find(sentence)].count("\n")
                shown = " ".join(sentence.split())
                problems.append(
                    f"{page.rel}:{block.line + offset}: '{words[0]}' with no evidence in its "
                    f"paragraph: {shown}"
                )
    return problems


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_absolute_words_carry_their_evidence(page):
    """'always', 'only', 都, 只 ... speak of a whole range: the paragraph must show it."""
    problems = unbacked_sentences(page)
    assert not problems, (
        "Cite the evidence in the same paragraph ({out}/{error}, or a link to a labelled section "
        "with an executed cell), narrow the sentence to what was shown, or, if it claims nothing "
        "about PyTorch, excuse it in tests/absolute_words.yaml with a reason:\n"
        + "\n".join(problems)
    )


def test_an_unbacked_always_fails_and_a_backed_one_passes(tmp_path):
    """The check can fail: an 'always' with nothing to back it is named by file and line."""
    page = Page("en", DOCS / "en" / "planted.md")
    unbacked = "(planted)=\n# Planted\n\nIntro.\n\n`detach()` always copies nothing.\n"
    problems = unbacked_sentences(page, unbacked)
    assert problems == [
        (
            "docs/en/planted.md:6: 'always' with no evidence in its paragraph: "
            "`detach()` always copies nothing."
        )
    ], problems
    backed = unbacked + "\nIt always shares: [the evidence](detach.md#detach-same-memory).\n"
    assert unbacked_sentences(page, backed) == problems  # the new, linked sentence passes
    assert not unbacked_sentences(
        Page("en", page.path), "(p)=\n# P\n\nA value: {out}`a/b:c`, always.\n"
    )


def test_a_claim_citation_is_evidence_for_its_paragraph():
    """{claim} names a claim the build checks on every kind of input; without it the same
    sentence is named."""
    page = Page("en", DOCS / "en" / "planted.md")
    bare = "(p)=\n# P\n\n`detach()` always returns a new object.\n"
    assert unbacked_sentences(page, bare), "the bare sentence should need evidence"
    cited = bare.replace("object.", "object {claim}`detach.new-object-same-memory`.")
    assert unbacked_sentences(page, cited) == []


def test_a_chinese_dou_without_evidence_fails():
    page = Page("zh", DOCS / "zh" / "planted.md")
    problems = unbacked_sentences(page, "(p)=\n# 标题\n\n这些操作都复制内存。\n")
    assert problems and problems[0].startswith("docs/zh/planted.md:4: '都'"), problems


def test_every_excused_sentence_still_needs_its_excuse():
    """An excuse in tests/absolute_words.yaml names a sentence that is still on its page and still
    uses an absolute word: a stale one would excuse the next sentence written there."""
    stale = []
    for entry in rules()["sentences"] or []:
        page = Page("en" if "/en/" in entry["page"] else "zh", DOCS.parent / entry["page"])
        language = "en" if page.language == "en" else "zh"
        found = False
        if page.path.exists():
            for block in blocks(page.text):
                for sentence in SENTENCE_END[language].split(block.text):
                    if " ".join(sentence.split()).startswith(entry["start"]) and word_pattern(
                        language
                    ).search(searched_text(sentence, language)):
                        found = True
        if not found:
            stale.append(
                f"{entry['page']}: no sentence starts {entry['start']!r} with an absolute word"
            )
    assert not stale, "tests/absolute_words.yaml excuses sentences that are gone:\n" + "\n".join(
        stale
    )


# The stricter rule: a sentence with an absolute word speaks of a range of inputs, and an output
# shows one input. So the sentence itself cites a claim (checked on every kind of the zoo, whose
# scope the build holds it to: whatcopy/sphinxext/claims.py), or stands in absolute_words.yaml
# with the reason it claims no range of PyTorch's behaviour. An {out} value or a link is still
# welcome beside it, but is not enough on its own.
FULL_STOP = {"en": re.compile(r"(?<=[.!?])\s+"), "zh": re.compile(r"(?<=[。！？])")}
ROLE = re.compile(r"\{\w+\}`[^`]*`")


def split_keeping_roles(text: str, pattern: re.Pattern) -> list[str]:
    """`text` split by `pattern`, never inside a role's text (an {out} label may hold a colon)."""
    roles = ROLE.findall(text)
    masked = ROLE.sub("\0", text)
    pieces = []
    for piece in pattern.split(masked):
        while "\0" in piece:
            piece = piece.replace("\0", roles.pop(0), 1)
        pieces.append(piece)
    return pieces


def uncited_sentences(page: Page, text: str | None = None) -> list[str]:
    """file:line: sentence, for each sentence with an absolute word that cites no claim and is
    not excused."""
    language = "en" if page.language == "en" else "zh"
    pattern = word_pattern(language)
    problems = []
    for block in blocks(page.text if text is None else text):
        if block.heading_level and block.text.rstrip().endswith("?"):
            continue  # a question claims nothing
        for full in split_keeping_roles(block.text, FULL_STOP[language]):
            if "{claim}`" in full:
                continue
            for sentence in split_keeping_roles(full, SENTENCE_END[language]):
                words = pattern.findall(searched_text(sentence, language))
                if words and not excused(page, sentence):
                    offset = block.text[: block.text.find(sentence)].count("\n")
                    shown = " ".join(sentence.split())
                    problems.append(
                        f"{page.rel}:{block.line + offset}: '{words[0]}' cites no claim: {shown}"
                    )
    return problems


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_general_sentences_cite_a_claim_or_stand_excused(page):
    """A sentence that says 'always', 'only', 都, 只 ... cites a {claim} (checked on every kind of
    input), or is excused in tests/absolute_words.yaml with its reason."""
    problems = uncited_sentences(page)
    assert not problems, (
        "Cite a claim in the sentence ({claim}`name`: generators/claims.py; add one if none says "
        "it), narrow the sentence to what was shown without an absolute word, or, if it claims "
        "no range of PyTorch's behaviour, excuse it in tests/absolute_words.yaml with a reason:\n"
        + "\n".join(problems)
    )


def test_an_output_alone_does_not_back_a_general_sentence():
    """An {out} value shows one input: the general sentence beside it is still named, and a claim
    in the same sentence (not only in the paragraph) lets it pass."""
    page = Page("en", DOCS / "en" / "planted.md")
    text = "(p)=\n# P\n\nHere {out}`a/b:c`. `detach()` always shares memory.\n"
    assert unbacked_sentences(page, text) == []  # the paragraph rule lets it through
    assert uncited_sentences(page, text) == [
        "docs/en/planted.md:4: 'always' cites no claim: `detach()` always shares memory."
    ]
    cited = text.replace("memory.", "memory {claim}`detach.new-object-same-memory`.")
    assert uncited_sentences(page, cited) == []
    zh = Page("zh", DOCS / "zh" / "planted.md")
    assert uncited_sentences(zh, "(p)=\n# 标题\n\n输出是 {out}`a/b:c`。这些操作都复制内存。\n")
