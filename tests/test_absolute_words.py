"""Absolute words cite their claims.

A sentence that says "always", "only", "never", 都, 只 ... speaks of a whole range of inputs, and
an output shows one. On this site such a sentence cites a {claim} in the sentence itself (a claim
checked on every kind of input of the zoo, whose scope the build holds the sentence to:
whatcopy/sphinxext/claims.py), or stands in tests/absolute_words.yaml with the reason it claims
no range of PyTorch's behaviour. An {out} value or a link beside it is welcome, but not enough.
The words, the uses of them that are not claims, and the excused sentences are in that file.

A block here is a block of prose between blank lines, a list item, a table row or a heading; a
heading that asks a question claims nothing. Code, roles' text, link targets, quotations
(someone else's words) and {on-cuda} boxes (which cite their CUDA snippet) are left out of the
search, and a sentence is never cut inside a role's text.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest
import yaml
from project import DOCS, LABEL, ROLE, Page, all_pages

from whatcopy.content.pages import fences

DATA = Path(__file__).with_name("absolute_words.yaml")

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
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


def blocks(page_text: str) -> list[Block]:
    """The prose blocks of a page, each with the line it starts on."""
    lines = page_text.splitlines()
    found: list[Block] = []
    current: Block | None = None
    # line index -> the fenced block it is part of, as MyST's parser reads the page
    fenced = {i: f for f in fences(page_text) for i in range(f.start, f.end)}
    start = 0
    if lines and lines[0].strip() == "---":
        start = next(i for i in range(1, len(lines)) if lines[i].strip() == "---") + 1

    def close():
        nonlocal current
        if current is not None and current.text.strip():
            found.append(current)
        current = None

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
        if LABEL.match(line):
            close()
            continue
        if not line.strip() or line.startswith(("%", "<")):
            close()
            continue
        if heading := HEADING.match(line):
            close()
            found.append(Block(number, heading.group(2), len(heading.group(1))))
            continue
        if line.startswith("|") or ITEM.match(line):
            close()
            current = Block(number, line)
            continue
        if current is None:
            current = Block(number, line)
        else:
            current.text += "\n" + line
    close()
    return found


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


# A full sentence ends at a full stop; the excuses name its parts, which end at a colon or a
# semicolon too. A {claim} anywhere in the full sentence cites it for all its parts.
FULL_STOP = {"en": re.compile(r"(?<=[.!?])\s+"), "zh": re.compile(r"(?<=[。！？])")}


def split_keeping_roles(text: str, pattern: re.Pattern) -> list[str]:
    """`text` split by `pattern`, never inside a role's text (an {out} label may hold a colon)."""
    roles = [role[0] for role in ROLE.finditer(text)]
    masked = ROLE.sub("\0", text)
    pieces = []
    for piece in pattern.split(masked):
        while "\0" in piece:
            piece = piece.replace("\0", roles.pop(0), 1)
        pieces.append(piece)
    return pieces


def sentences(page_text: str, language: str):
    """(block, full sentence, part) for each part of each sentence of the page's prose, but a
    heading that asks a question (it claims nothing)."""
    for block in blocks(page_text):
        if block.heading_level and block.text.rstrip().endswith("?"):
            continue
        for full in split_keeping_roles(block.text, FULL_STOP[language]):
            for part in split_keeping_roles(full, SENTENCE_END[language]):
                yield block, full, part


def uncited_sentences(page: Page, text: str | None = None) -> list[str]:
    """file:line: sentence, for each sentence with an absolute word that cites no claim and is
    not excused."""
    language = "en" if page.language == "en" else "zh"
    pattern = word_pattern(language)
    problems = []
    for block, full, sentence in sentences(page.text if text is None else text, language):
        words = pattern.findall(searched_text(sentence, language))
        if words and "{claim}`" not in full and not excused(page, sentence):
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


def test_an_uncited_always_is_named_and_a_cited_one_passes():
    """The check can fail: an 'always' is named by file and line even beside an {out} value (an
    output shows one input) or a link; a claim in the same sentence, not only in the same
    paragraph, lets it pass."""
    page = Page("en", DOCS / "en" / "planted.md")
    text = (
        "(p)=\n# P\n\nHere {out}`a/b:c`. `detach()` always shares memory.\n\n"
        "It always shares: [the evidence](detach.md#detach-same-memory).\n"
    )
    assert uncited_sentences(page, text) == [
        "docs/en/planted.md:4: 'always' cites no claim: `detach()` always shares memory.",
        "docs/en/planted.md:6: 'always' cites no claim: It always shares:",
    ]
    cited = text.replace("memory.", "memory {claim}`detach.new-object-same-memory`.")
    assert uncited_sentences(page, cited) == uncited_sentences(page, text)[1:]
    zh = Page("zh", DOCS / "zh" / "planted.md")
    problems = uncited_sentences(zh, "(p)=\n# 标题\n\n输出是 {out}`a/b:c`。这些操作都复制内存。\n")
    assert problems and problems[0].startswith("docs/zh/planted.md:4: '都'"), problems


def test_every_excused_sentence_still_needs_its_excuse():
    """An excuse in tests/absolute_words.yaml names a sentence that is still on its page and still
    uses an absolute word: a stale one would excuse the next sentence written there."""
    stale = []
    for entry in rules()["sentences"] or []:
        page = Page("en" if "/en/" in entry["page"] else "zh", DOCS.parent / entry["page"])
        language = "en" if page.language == "en" else "zh"
        found = page.path.exists() and any(
            " ".join(part.split()).startswith(entry["start"])
            and word_pattern(language).search(searched_text(part, language))
            for _, _, part in sentences(page.text, language)
        )
        if not found:
            stale.append(
                f"{entry['page']}: no sentence starts {entry['start']!r} with an absolute word"
            )
    assert not stale, "tests/absolute_words.yaml excuses sentences that are gone:\n" + "\n".join(
        stale
    )
