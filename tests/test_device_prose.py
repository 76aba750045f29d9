"""GPU statements only from GPU runs: the {on-cuda} box (whatcopy/sphinxext/device_prose.py).

* No page says anything about GPU or CUDA behaviour outside an ``{on-cuda}`` box; the lint that
  checks it reports the pages as they were before the box existed.
* The box switches by itself: with a current CUDA transcript of its snippet it shows the CUDA
  output and links the transcript; without one (or with an outdated one) it says the statement
  is expected on CUDA and not yet verified, in both languages; a CUDA run that contradicts its
  ``:expect:`` fails the build.

These need no site build and no GPU: the transcripts are faked in a temporary folder.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from project import DOCS, ROOT, all_pages, parsed_html

from whatcopy.core import transcripts
from whatcopy.sphinxext import device_prose
from whatcopy.sphinxext.messages import catalog

FIXTURES = Path(__file__).parent / "fixtures" / "device_prose"


def findings_report(text: str, where: str) -> list[str]:
    return [f.message(where) for f in device_prose.uncovered_device_prose(text)]


@pytest.mark.parametrize("page", all_pages(), ids=lambda p: p.rel)
def test_no_gpu_statement_outside_an_on_cuda_box(page):
    """Prose about GPUs goes in an {on-cuda} box, which says whether a CUDA run backs it."""
    problems = findings_report(page.text, page.rel)
    assert not problems, (
        "Put these sentences in an {on-cuda} box citing the snippet whose CUDA run shows them "
        "(see CONTRIBUTING.md, 'How to add a page'), or reword them:\n" + "\n".join(problems)
    )


def test_snippet_claims_about_gpus_say_expected():
    """A snippet's claim is prose on the snippet index, shown whether or not a CUDA run backs it."""
    problems = []
    for snippet in transcripts.all_snippets():
        claim = snippet.claim
        word = device_prose.DEVICE_WORDS.search(claim)
        if word and "expected" not in claim.lower():
            problems.append(
                f"{snippet.rel}:1: its claim speaks of '{word.group(0)}' as fact; say what is "
                f"expected on a GPU: {claim}"
            )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The lint: it must fail on the pages as they were, and follow its documented rules


@pytest.mark.parametrize(
    "fixture, expected",
    [
        # (line, word) pairs the lint must report in the page before the box existed
        (
            "devices.en.before-issue-7.md",
            {
                (13, "GPU"),
                (17, "CUDA"),
                (32, "GPU"),
                (33, "host memory"),
                (48, "GPU"),
                (50, "two devices"),
                (83, "GPU"),
                (93, "two devices"),
                (98, "cuda"),
                (103, "every device"),
            },
        ),
        (
            "devices.zh.before-issue-7.md",
            {
                (12, "GPU"),
                (25, "GPU"),
                (36, "显存"),
                (36, "两种设备"),
                (47, "默认设备"),
                (60, "GPU"),
                (72, "任何设备"),
            },
        ),
        ("memory.en.before-issue-7.md", {(44, "GPU"), (51, "GPU"), (78, "GPU")}),
        ("memory.zh.before-issue-7.md", {(32, "GPU"), (38, "显存"), (58, "显存")}),
    ],
)
def test_the_lint_fails_on_the_pages_before_the_box(fixture, expected):
    """docs/{en,zh}/{devices,memory}.md as `git show main:...` gave them before issue 7."""
    path = FIXTURES / fixture
    findings = device_prose.uncovered_device_prose(path.read_text(encoding="utf-8"))
    found = {(f.line, f.word) for f in findings}
    assert expected <= found, f"{fixture}: not reported: {sorted(expected - found)}"
    message = findings[0].message("docs/en/devices.md")
    assert message.startswith(f"docs/en/devices.md:{findings[0].line}: '"), message


LINT_CASES = """\
---
title: GPU in front matter is not prose
---
(label-with-cuda)=
# A heading may name CUDA

```{code-cell} python
:load: ../../snippets/devices/nothing_to_move.py
```

A link names its target: [the CUDA outputs](devices.md#devices-numpy-cuda).
The article says that detach() "saves GPU memory" and “减小显存的消耗”.
A role quotes an output: {out}`devices/nothing_to_move:x.to("cuda") is x`.

:::{on-cuda} devices/nothing_to_move
On a GPU, `x.cpu()` copies.
:::

% device-prose: about this site's build machine, not about CUDA
This site is built without a GPU.

This line speaks of a GPU.
So does `x.to("cuda")` in code.
以及显存。
A quoted word does not hide `torch.set_default_device("cuda")` in code.
[a link](x.md) does not hide the GPU after it.

% device-prose:
A marker without a reason does not count on a GPU.

```{note}
A note about CUDA is prose too.
```

```{glossary}
GPU memory
显存
  Memory on the graphics card: the entry of a GPU term defines it.

view
视图
  A tensor over another's storage; on a GPU too.
```
"""


def test_the_lint_rules():
    findings = device_prose.uncovered_device_prose(LINT_CASES)
    lines = LINT_CASES.split("\n")
    reported = {(lines[f.line - 1].strip()[:24], f.word) for f in findings}
    assert reported == {
        ("This line speaks of a GP", "GPU"),
        ('So does `x.to("cuda")` i', "cuda"),
        ("以及显存。", "显存"),
        ("A quoted word does not h", "cuda"),
        ("[a link](x.md) does not ", "GPU"),
        ("% device-prose:", "% device-prose:"),
        ("A marker without a reaso", "GPU"),
        ("A note about CUDA is pro", "CUDA"),
        ("A tensor over another's ", "GPU"),
    }, "\n".join(f.message("case") for f in findings)


# ---------------------------------------------------------------------------------------------
# The box: evidence from a current CUDA transcript, or marked unverified

NAME = "devices/nothing_to_move"
CUDA_OUTPUT = {  # what a CUDA run prints, where it differs from the CPU transcript
    "x.device.type: cpu": "x.device.type: cuda",
    "x.cpu() is x: True": "x.cpu() is x: False",
    'x.to("cpu") is x: True': 'x.to("cpu") is x: False',
}


@pytest.fixture
def transcript_dir(tmp_path, monkeypatch):
    """Transcripts are read from tmp_path/<device>/... instead of transcripts/."""

    def transcript(self, device):
        return tmp_path / device / f"{self.name}.txt"

    monkeypatch.setattr(transcripts.Snippet, "transcript", transcript)
    return tmp_path


def fake_cuda_transcript(folder: Path, *, source_sha: str | None = None, outputs=CUDA_OUTPUT):
    """The CPU transcript of NAME, rewritten as if a GPU had recorded it."""
    text = (ROOT / "transcripts" / "cpu" / f"{NAME}.txt").read_text(encoding="utf-8")
    text = text.replace("Device: cpu (x86_64)", "Device: cuda (NVIDIA Test GPU)")
    for old, new in outputs.items():
        assert old in text, old
        text = text.replace(old, new)
    if source_sha is not None:
        header = text.split("Source-SHA256: ", 1)
        text = header[0] + "Source-SHA256: " + source_sha + header[1][64:]
    path = folder / "cuda" / f"{NAME}.txt"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path


EXPECT = ["x.cpu() is x: False", 'x.to("cpu") is x: False']


def box_text(evidence, language: str) -> tuple[str, list[str]]:
    from docutils import nodes

    statement = nodes.paragraph(text="On a GPU, x.cpu() copies.")
    box = device_prose.device_box(evidence, language, "devices", [statement])
    links = [ref["refuri"] for ref in box.findall(nodes.reference)]
    return box.astext(), links


def test_a_second_build_in_another_language_speaks_its_own(monkeypatch):
    """The tests build in both languages in one process; each build registers its catalog with
    Sphinx, which merges it into the translator it holds. The boxes above came out in Chinese
    when a Chinese build had run first in the same worker: the second build's catalog must
    replace the first's."""
    import types

    import sphinx.locale

    from whatcopy.sphinxext import messages

    class App:
        def __init__(self, language: str):
            self.config = types.SimpleNamespace(language=language)

        def add_message_catalog(self, catalog: str, locale_dir: str) -> None:
            sphinx.locale.init([locale_dir], self.config.language, catalog)

    monkeypatch.setattr(sphinx.locale, "translators", dict(sphinx.locale.translators))
    monkeypatch.setattr(messages, "registered", messages.registered)
    message = "Expected on CUDA, not yet verified by this site"
    chinese = messages.catalog("zh_CN").gettext(message)
    assert chinese != message
    messages.setup(App("zh_CN"))
    assert messages.translate("zh_CN", message) == chinese
    messages.setup(App("en"))
    assert messages.translate("en", message) == message
    messages.setup(App("zh_CN"))
    assert messages.translate("zh_CN", message) == chinese


def test_without_a_cuda_transcript_the_box_says_unverified(transcript_dir):
    evidence = device_prose.cuda_evidence(NAME, EXPECT)
    assert evidence.state == "missing" and not evidence.lines
    en, links = box_text(evidence, "en")
    assert en.startswith("Expected on CUDA, not yet verified by this site")
    assert "On a GPU, x.cpu() copies." in en and "CPU run" in en
    assert "nox" not in en, "a maintainer's command in a box for readers"
    assert not links
    zh, _ = box_text(evidence, "zh_CN")
    assert zh.startswith("CUDA 上预期如此，本站尚未验证") and "nox" not in zh


def test_with_a_current_cuda_transcript_the_box_shows_its_output(transcript_dir):
    fake_cuda_transcript(transcript_dir)
    evidence = device_prose.cuda_evidence(NAME, EXPECT)
    assert evidence.state == "verified", evidence
    assert evidence.lines == ("x.cpu() is x: False", 'x.to("cpu") is x: False')
    en, links = box_text(evidence, "en")
    assert en.startswith("Verified on CUDA") and "NVIDIA Test GPU" in en
    assert "x.cpu() is x: False" in en and "not yet verified" not in en
    assert links == ["downloads/transcripts/cuda/devices/nothing_to_move.txt"]
    zh, _ = box_text(evidence, "zh_CN")
    assert zh.startswith("已在 CUDA 上验证") and "x.cpu() is x: False" in zh
    # without :expect:, the whole recorded output is the evidence
    whole = device_prose.cuda_evidence(NAME)
    assert whole.state == "verified" and "x.device.type: cuda" in whole.lines


def test_an_outdated_cuda_transcript_does_not_count(transcript_dir):
    fake_cuda_transcript(transcript_dir, source_sha="0" * 64)
    evidence = device_prose.cuda_evidence(NAME, EXPECT)
    assert evidence.state == "stale"
    en, links = box_text(evidence, "en")
    assert en.startswith("Expected on CUDA, not yet verified by this site") and not links
    assert "earlier version" in en


def test_a_cuda_run_that_contradicts_the_statement_is_reported(transcript_dir):
    fake_cuda_transcript(transcript_dir, outputs={"x.device.type: cpu": "x.device.type: cuda"})
    evidence = device_prose.cuda_evidence(NAME, EXPECT)
    assert evidence.state == "contradicted"
    assert evidence.missing == tuple(EXPECT)
    assert evidence.lines == ("x.cpu() is x: True", 'x.to("cpu") is x: True')
    en, _ = box_text(evidence, "en")
    assert en.startswith("Contradicted by the recorded CUDA run")


# ---------------------------------------------------------------------------------------------
# The directive in a real (small) Sphinx build, in both languages

PAGE = """\
# Page

:::{on-cuda} devices/nothing_to_move
:expect: x.cpu() is x: False ;; x.to("cpu") is x: False
On a GPU, `x.cpu()` copies.
:::
"""


def sphinx_build(tiny_site, language: str):
    site = tiny_site(
        {"index.md": PAGE},
        ["myst_parser", "whatcopy.sphinxext.device_prose"],
        language=language,
        conf='myst_enable_extensions = ["colon_fence"]\n',
    )
    return site.app, site.html(), site.warnings


def test_the_directive_switches_when_a_transcript_arrives(transcript_dir, tiny_site):
    app, html, warnings = sphinx_build(tiny_site, "en")
    assert "Expected on CUDA, not yet verified by this site" in html, warnings
    assert "device-prose-missing" in html and not warnings
    assert device_prose.outdated_pages(app, app.env, set(), set(), set()) == []
    fake_cuda_transcript(transcript_dir)
    # the next build reads the page again, with no edit to it
    assert device_prose.outdated_pages(app, app.env, set(), set(), set()) == ["index"]
    app, html, warnings = sphinx_build(tiny_site, "zh_CN")
    assert "已在 CUDA 上验证" in html and "x.cpu() is x: False" in html, warnings
    assert "downloads/transcripts/cuda/devices/nothing_to_move.txt" in html


def test_the_directive_fails_the_build_when_the_cuda_run_contradicts_it(transcript_dir, tiny_site):
    fake_cuda_transcript(transcript_dir, outputs={"x.device.type: cpu": "x.device.type: cuda"})
    _, _html, warnings = sphinx_build(tiny_site, "en")
    assert "index.md:3" in warnings and "contradicted by the GPU run" in warnings, warnings
    assert "ERROR" in warnings


def test_docs_use_the_box_and_site_conf_loads_it():
    from whatcopy import sphinxext
    from whatcopy.sphinxext import site_conf

    assert "whatcopy.sphinxext" in site_conf.extensions and "device_prose" in sphinxext.MODULES
    for language in ("en", "zh"):
        for page in ("devices", "memory"):
            text = (DOCS / language / f"{page}.md").read_text(encoding="utf-8")
            assert ":::{on-cuda}" in text, f"docs/{language}/{page}.md has no {{on-cuda}} box"


BOX_START = re.compile(r"^:::\{on-cuda\}\s+(\S+)\s*$")


def source_boxes(text: str) -> list[tuple[int, str, list[str]]]:
    """(line, snippet name, expected lines) of each {on-cuda} box in a page source."""
    lines = text.splitlines()
    boxes = []
    for number, line in enumerate(lines, start=1):
        if match := BOX_START.match(line):
            expect = lines[number] if number < len(lines) else ""
            value = expect.split(":expect:", 1)[1] if expect.startswith(":expect:") else ""
            boxes.append((number, match.group(1), device_prose.parse_expect(value)))
    return boxes


@pytest.mark.parametrize(
    "page", [p for p in all_pages() if ":::{on-cuda}" in p.text], ids=lambda p: p.rel
)
def test_the_built_page_shows_each_box_as_its_evidence_stands(page, built_site):
    """Read from the built site: one box per {on-cuda}, verified exactly when the CUDA run is."""
    html = parsed_html(page.html)
    built = html.select("div.device-prose")
    boxes = source_boxes(page.text)
    assert len(built) == len(boxes), f"{page.rel}: {len(boxes)} boxes, {len(built)} in {page.html}"
    language = "zh_CN" if page.language == "zh" else "en"
    titles = {
        "verified": "verified",
        "missing": "unverified",
        "stale": "unverified",
        "contradicted": "contradicted",
    }
    for (line, name, expect), box in zip(boxes, built):
        evidence = device_prose.cuda_evidence(name, expect)
        title = box.select_one(".admonition-title").get_text(strip=True)
        assert f"device-prose-{evidence.state}" in box["class"], (
            f"{page.rel}:{line}: the built box is {box['class']}, the evidence is "
            f"{evidence.state}: rebuild the site"
        )
        expected = catalog(language).gettext(device_prose.TEXT[titles[evidence.state]])
        assert title == expected, f"{page.rel}:{line}: {title!r}"
