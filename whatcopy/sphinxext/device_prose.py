"""Device prose: what a page says about GPUs stands next to a CUDA run, or is marked unverified.

One job: no sentence about CUDA behaviour reads as fact unless a recorded CUDA run backs it.

    :::{on-cuda} devices/nothing_to_move
    :expect: x.cpu() is x: False
    On a GPU, `x.cpu()` has to copy the values into host memory and returns a new tensor.
    :::

The argument names the snippet whose CUDA run is the evidence (``snippets/<name>.py``); the
optional ``:expect:`` lists, one per line (separate several with `` ;; ``), the start of output
lines the statement relies on.  The box renders

* **verified**, when ``transcripts/cuda/<name>.txt`` exists and was recorded for the snippet's
  current source: the statement, the CUDA output lines it relies on (every ``:expect:`` line's
  label, or the whole output when there is no ``:expect:``), the machine and torch of the run,
  and a link to the transcript;
* **expected on CUDA, not yet verified by this site**, otherwise; the page's CPU evidence stays
  where it is, outside the box.

A current CUDA transcript that lacks an ``:expect:`` line contradicts the statement: the build
fails there, naming the page line, so that a GPU run can never make a wrong sentence look
verified.  Recording the transcripts (``nox -s cuda -- record``) and committing them is all it
takes to switch the boxes: a page whose boxes' evidence changed is read again by the next build.

``uncovered_device_prose()`` finds prose about GPUs outside these boxes (tests/test_device_prose.py
runs it on every page); the rules it applies are in its docstring.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from whatcopy.content import pages
from whatcopy.core import transcripts
from whatcopy.core.transcripts import SNIPPETS, Snippet
from whatcopy.sphinxext import build_guards
from whatcopy.sphinxext.messages import N_, translate

logger = logging.getLogger(__name__)

DEVICE = "cuda"

TEXT = {  # English msgids; the Chinese is in docs/locale/zh_CN/LC_MESSAGES/whatcopy.po
    "verified": N_("Verified on CUDA"),
    "verified_detail": N_("Recorded run: {machine}, torch {torch}, {date}. "),
    "transcript_link": N_("CUDA transcript of {name}.py"),
    "unverified": N_("Expected on CUDA, not yet verified by this site"),
    # for readers: how a maintainer records one is in CONTRIBUTING.md, not in the box
    "missing": N_(
        "No CUDA transcript of `{snippet}` yet: the evidence on this page is its CPU run."
    ),
    "stale": N_(
        "The CUDA transcript of `{snippet}` was recorded for an earlier version of the snippet: "
        "the evidence on this page is its CPU run."
    ),
    "contradicted": N_("Contradicted by the recorded CUDA run"),
    "contradicted_detail": N_("The CUDA transcript of `{snippet}` does not print {missing}."),
    "evidence": N_("What the CUDA run printed:"),
}


def _text(language: str, key: str) -> str:
    """The label in the build's language (the catalog registered for it)."""
    return translate(language, TEXT[key])


# ---------------------------------------------------------------------------------------------
# The evidence: a snippet's CUDA transcript, read through whatcopy.core.transcripts


@dataclasses.dataclass(frozen=True)
class Evidence:
    name: str  # snippet name below snippets/, without .py
    state: str  # "verified", "missing", "stale" or "contradicted"
    header: dict[str, str]  # the transcript's header fields (empty when missing)
    lines: tuple[str, ...]  # the output lines shown as evidence
    missing: tuple[str, ...]  # expected lines the transcript does not print

    @property
    def verified(self) -> bool:
        return self.state == "verified"


def parse_expect(value: str | None) -> list[str]:
    """``:expect:`` -> the expected line starts (one per line, or separated by ``;;``)."""
    if not value:
        return []
    parts = re.split(r"\n|;;", value)
    return [p.strip() for p in parts if p.strip()]


def _label(expected: str) -> str:
    """The label of an expected line: the text before its first ``: `` (as {out} reads it)."""
    return re.split(r":\s| ->\s", expected + " ", maxsplit=1)[0]


def cuda_evidence(name: str, expect: list[str] | None = None) -> Evidence:
    """What the snippet's CUDA transcript says, and whether it backs a statement."""
    expect = expect or []
    snippet = Snippet(SNIPPETS / f"{name}.py")
    path = snippet.transcript(DEVICE)
    if not path.exists():
        return Evidence(name, "missing", {}, (), ())
    header = transcripts.read_header(path)
    if header.get("Source-SHA256") != snippet.sha256:
        return Evidence(name, "stale", header, (), ())
    printed, error = transcripts.recorded_output(snippet, DEVICE)
    output = printed.splitlines() + ([error] if error else [])
    if not expect:
        return Evidence(name, "verified", header, tuple(output), ())
    missing = tuple(e for e in expect if not any(line.startswith(e) for line in output))
    labels = [_label(e) for e in expect]
    shown = tuple(line for line in output if any(line.startswith(label) for label in labels))
    return Evidence(name, "contradicted" if missing else "verified", header, shown, missing)


def evidence_key(name: str) -> str:
    """Changes whenever the evidence of a box about this snippet could change."""
    snippet = Snippet(SNIPPETS / f"{name}.py")
    path = snippet.transcript(DEVICE)
    parts = [snippet.sha256 if snippet.path.is_file() else "no snippet"]
    parts.append(hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "none")
    return ":".join(parts)


# ---------------------------------------------------------------------------------------------
# Rendering


def render_status(evidence: Evidence, language: str, docname: str) -> list[nodes.Node]:
    """The box's title and the lines that say where the statement stands."""
    from whatcopy.sphinxext.course_kit import download_path, relative

    text = lambda key: _text(language, key)
    shown_name = f"snippets/{evidence.name}.py"
    result: list[nodes.Node] = []
    if evidence.verified:
        result.append(nodes.title(text=text("verified")))
        para = nodes.paragraph(classes=["device-prose-detail"])
        para += nodes.Text(
            text("verified_detail").format(
                machine=evidence.header.get("Device", "?"),
                torch=evidence.header.get("Torch", "?"),
                date=evidence.header.get("Recorded", "?"),
            )
        )
        uri = relative(docname, download_path("transcript", evidence.name, DEVICE))
        para += nodes.reference(
            "", text("transcript_link").format(name=Path(evidence.name).name), refuri=uri
        )
        result.append(para)
        return result
    if evidence.state == "contradicted":
        result.append(nodes.title(text=text("contradicted")))
        missing = ", ".join(f"“{m}”" for m in evidence.missing)
        detail = text("contradicted_detail").format(snippet=shown_name, missing=missing)
        result.append(_with_code(detail))
        return result
    result.append(nodes.title(text=text("unverified")))
    detail = text(evidence.state).format(snippet=shown_name)
    result.append(_with_code(detail))
    return result


def _with_code(text: str) -> nodes.paragraph:
    """A paragraph of the box's own text, `...` shown as inline code."""
    para = nodes.paragraph(classes=["device-prose-detail"])
    for index, piece in enumerate(text.split("`")):
        para += nodes.literal(text=piece) if index % 2 else nodes.Text(piece)
    return para


def render_evidence(evidence: Evidence, language: str) -> list[nodes.Node]:
    """The CUDA output lines a verified or contradicted statement is judged by."""
    if evidence.state not in ("verified", "contradicted") or not evidence.lines:
        return []
    text = "\n".join(evidence.lines)
    intro = nodes.paragraph(text=_text(language, "evidence"), classes=["device-prose-detail"])
    block = nodes.literal_block(
        text, text, language="none", classes=["output", "device-prose-output"]
    )
    return [intro, block]


def device_box(
    evidence: Evidence, language: str, docname: str, body: list[nodes.Node]
) -> nodes.admonition:
    """The whole box: title, status line, the statement, then the evidence."""
    style = {"verified": "tip", "contradicted": "error"}.get(evidence.state, "caution")
    box = nodes.admonition(
        classes=["device-prose", f"device-prose-{evidence.state}", style],
        snippet=evidence.name,
    )
    status = render_status(evidence, language, docname)
    box += status[0]
    box += body
    box += status[1:]
    box += render_evidence(evidence, language)
    return box


class OnCuda(SphinxDirective):
    """``{on-cuda} topic/snippet``: a statement about CUDA behaviour and its CUDA evidence."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar = {"expect": directives.unchanged}

    def run(self):
        env = self.env
        name = self.arguments[0].strip().removeprefix("snippets/").removesuffix(".py")
        path = SNIPPETS / f"{name}.py"
        if not path.is_file():
            logger.error(
                "{on-cuda} %s: no snippet snippets/%s.py",
                name,
                name,
                location=self.get_location(),
            )
            return []
        env.note_dependency(str(path))
        transcript = Snippet(path).transcript(DEVICE)
        if transcript.exists():
            env.note_dependency(str(transcript))
        records = build_guards.records_of(env, "device_prose")
        records.setdefault(env.docname, {})[name] = evidence_key(name)
        if not self.content:
            logger.error(
                "{on-cuda} %s: the box holds no statement", name, location=self.get_location()
            )
        evidence = cuda_evidence(name, parse_expect(self.options.get("expect")))
        if evidence.state == "contradicted":
            logger.error(
                "{on-cuda} %s: the current CUDA transcript does not print %s; the statement "
                "in this box is contradicted by the GPU run: rewrite it (and its :expect:)",
                name,
                ", ".join(repr(m) for m in evidence.missing),
                location=self.get_location(),
            )
        body = nodes.container(classes=["device-prose-statement"])
        self.state.nested_parse(self.content, self.content_offset, body)
        box = device_box(evidence, env.config.language or "en", env.docname, body.children)
        self.set_source_info(box)
        return [box]


def outdated_pages(app, env, added, changed, removed) -> list[str]:
    """Pages whose boxes would render differently now (a CUDA transcript came, went or changed)."""
    store = getattr(env, "device_prose", {})
    return [
        docname
        for docname, boxes in store.items()
        if docname not in removed and any(evidence_key(n) != key for n, key in boxes.items())
    ]


# ---------------------------------------------------------------------------------------------
# Finding prose about GPUs outside the boxes (run on every page by tests/test_device_prose.py)

DEVICE_WORDS = re.compile(
    r"(?<![A-Za-z])(?:GPUs?|CUDA|ROCm|MPS|XPU|TPUs?|VRAM|NVIDIA|graphics cards?|host memory"
    r"|device memory|pinned memory|default device"
    r"|(?:every|any|all|both|two|either|each|other|another) devices?)(?![A-Za-z])"
    r"|显卡|显存|主机内存|设备内存|锁页内存|默认设备|(?:任何|每种|每一种|两种|所有|各种|另一种|其他)设备",
    re.IGNORECASE,
)
MARKER = re.compile(r"^%\s*device-prose:\s*(.*)$")
CODE_DIRECTIVES = {"{code-cell}", "{code-block}", "{code}", "{literalinclude}", "{sourcecode}"}
BOX = "{on-cuda}"
ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
LINK = re.compile(r"!?\[[^\]]*\]\([^)]*\)|<https?://[^>]*>")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
QUOTED = re.compile(r"“[^”]*”|‘[^’]*’|「[^」]*」|\"[^\"\n]*\"")


@dataclasses.dataclass(frozen=True)
class Finding:
    line: int
    word: str
    text: str  # the source line

    def message(self, where: str) -> str:
        return (
            f"{where}:{self.line}: '{self.word}' in prose outside an {{on-cuda}} box: "
            f"{self.text.strip()}"
        )


def _blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _clean(text: str) -> str:
    """Blank out what names things rather than states behaviour, keeping every offset."""
    text = ROLE.sub(_blank, text)  # {out}`...`, {term}`...`: quoted outputs and names
    text = LINK.sub(_blank, text)  # a link's text and target name what it points to
    spans = [(m.start(), m.end()) for m in CODE_SPAN.finditer(text)]
    masked = list(text)
    for start, end in spans:  # quotation marks inside code are code, not quotations
        for i in range(start, end):
            if masked[i] != "\n":
                masked[i] = "\x00"
    masked_text = QUOTED.sub(_blank, "".join(masked))
    out = list(masked_text)
    for start, end in spans:
        out[start:end] = text[start:end]
    return "".join(out)


def uncovered_device_prose(text: str) -> list[Finding]:
    """Prose that speaks of GPUs outside an ``{on-cuda}`` box, with its 1-based line.

    What is prose: every line of a page but its front matter, code cells and other code fences,
    ``(label)=`` lines, headings (a heading names a topic; write it as a topic, not a claim) and
    ``%`` comments.  The text of admonitions and other directives is prose.

    What speaks of GPUs: the words in DEVICE_WORDS (GPU, CUDA, graphics card, host memory,
    default device, both/every/any device, 显卡, 显存, 主机内存, 默认设备, 两种设备, ...), in
    running text or inside inline code (`` `x.to("cuda")` ``).

    What does not count: a role's text (``{out}`...```, ``{term}`...```), a link (its text and
    target name the page it points to), text in quotation marks (“...”, "...": someone else's
    words, such as an article's claim being judged), and, on the glossary, the terms of an entry
    and the definition of an entry whose term is itself a GPU word.

    The escape hatch: a comment line ``% device-prose: <why this is not a claim>`` right above
    a paragraph exempts that paragraph (for sentences about this site or its snippets, not about
    what PyTorch does on a GPU).  A marker without a reason exempts nothing and is reported.
    """
    lines = text.split("\n")
    prose = [False] * len(lines)  # which lines are prose to scan
    start = 0
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() == "---":
                start = index + 1
                break
    findings: list[Finding] = []
    # line index -> the fenced block it is part of, as MyST's parser reads the page
    fenced = {i: f for f in pages.fences(text) for i in range(f.start, f.end)}
    fence_kind = ""  # "code", "box", "glossary" or "prose"
    glossary_exempt = in_terms = False
    exempt_paragraph = exempt_started = False  # after a % device-prose: marker
    for index in range(start, len(lines)):
        line = lines[index]
        stripped = line.strip()
        if (fence := fenced.get(index)) and index != fence.start:
            if index == fence.closing:
                continue
            if fence_kind == "prose" and not line.startswith(":"):
                prose[index] = True
            elif fence_kind == "glossary":
                if stripped and not line[0].isspace() and not line.startswith(":"):
                    # a term line; the first after a definition or a blank line starts an entry
                    words = bool(DEVICE_WORDS.search(stripped))
                    glossary_exempt = (glossary_exempt or words) if in_terms else words
                    in_terms = True
                else:
                    in_terms = False
                    if stripped and not glossary_exempt:
                        prose[index] = True
            continue
        if fence:
            directive = fence.directive
            if directive == BOX:
                fence_kind = "box"
            elif directive == "{glossary}":
                fence_kind, glossary_exempt, in_terms = "glossary", False, False
            elif directive in CODE_DIRECTIVES or not directive:
                fence_kind = "code"
            else:
                fence_kind = "prose"
            exempt_paragraph = exempt_started = False
            continue
        if not stripped:
            if exempt_started:
                exempt_paragraph = exempt_started = False
            continue
        if marker := MARKER.match(stripped):
            if marker.group(1).strip():
                exempt_paragraph, exempt_started = True, False
            else:  # a marker without its reason exempts nothing
                findings.append(Finding(index + 1, "% device-prose:", line + "  (give the reason)"))
            continue
        if stripped.startswith(("%", "#")) or re.match(r"^\([\w-]+\)=$", stripped):
            continue  # a comment, a heading or a (label)= line
        if exempt_paragraph:
            exempt_started = True
        else:
            prose[index] = True
    # Scan paragraph by paragraph, so that links and quotations may span lines.
    index = 0
    while index < len(lines):
        if not prose[index]:
            index += 1
            continue
        end = index
        while end < len(lines) and prose[end] and lines[end].strip():
            end += 1
        end = max(end, index + 1)
        block = "\n".join(lines[index:end])
        cleaned = _clean(block)
        for found in DEVICE_WORDS.finditer(cleaned):
            line_no = index + cleaned.count("\n", 0, found.start())
            findings.append(Finding(line_no + 1, found.group(0), lines[line_no]))
        index = end
    return sorted(findings, key=lambda f: f.line)


class BoxRecords(build_guards.PageRecords):
    """Each page's {on-cuda} boxes and their evidence keys (env.device_prose)."""

    name = "device_prose"


def setup(app: Sphinx):
    app.setup_extension("whatcopy.sphinxext.messages")
    app.add_directive("on-cuda", OnCuda)
    app.connect("env-get-outdated", outdated_pages)
    app.add_env_collector(BoxRecords)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
