"""The transcript format: a snippet's statements as doctest examples with what each printed,
under a header (claim, device, versions, date, the source's SHA-256). Standard library only
(torch, when recording, is imported where it is needed)."""

from __future__ import annotations

import datetime
import doctest
import platform
import re
import traceback
from pathlib import Path

from whatcopy.core.snippets import Snippet

CUDA_SETUP = (
    "import torch",
    'torch.set_default_device("cuda")  # added by the recorder for the CUDA pass',
)
HEADER_FIELD = re.compile(r"^([A-Z][\w-]*): (.*)$", re.MULTILINE)


def example_text(source: str, want: str) -> str:
    lines = source.split("\n")
    out = [">>> " + lines[0]] + [("... " + line) if line.strip() else "..." for line in lines[1:]]
    for line in want.splitlines():
        out.append(line if line.strip() else "<BLANKLINE>")
    return "\n".join(out)


def traceback_want(exc_type: type, exc_value: BaseException) -> str:
    """The expected-output form doctest matches an exception against."""
    only = "".join(traceback.format_exception_only(exc_type, exc_value))
    return "Traceback (most recent call last):\n    ...\n" + only


def setup_sources(device: str) -> tuple[str, ...]:
    return CUDA_SETUP if device == "cuda" else ()


def device_description(device: str) -> str:
    import torch

    if device == "cuda":
        return f"cuda ({torch.cuda.get_device_name(0)})"
    return f"cpu ({platform.machine()})"


def render_transcript(snippet: Snippet, device: str, device_label: str, outputs: list[str]) -> str:
    import torch

    header = [
        f"Doctest transcript of {snippet.rel}",
        "",
        f"Claim: {snippet.claim}",
        f"Device: {device_label}",
        f"Torch: {torch.__version__}",
        f"Python: {platform.python_version()}",
        f"Recorded: {datetime.date.today().isoformat()}",
        f"Source-SHA256: {snippet.sha256}",
        "",
        "Recorded by `nox -s record`; replay it with `python -m doctest -v <this file>`.",
        "Do not edit by hand: re-record and review the diff.",
    ]
    examples = [example_text(src, "") for src in setup_sources(device)]
    for stmt, got in zip(snippet.statements(), outputs, strict=True):
        examples.append(example_text(stmt.source, got))
    return "\n".join(header) + "\n\n" + "\n".join(examples) + "\n"


def read_header(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    head = text.split("\n>>> ", 1)[0]
    return dict(HEADER_FIELD.findall(head))


def recorded_output(snippet: Snippet, device: str = "cpu") -> tuple[str, str | None]:
    """(what the snippet printed, its exception line or None), as its transcript records them."""
    text = snippet.transcript(device).read_text(encoding="utf-8")
    printed, error = [], None
    for example in doctest.DocTestParser().get_examples(text):
        if example.exc_msg is not None:
            error = example.exc_msg.strip()
        else:
            printed.append(example.want.replace("<BLANKLINE>", ""))
    return "".join(printed), error


def same_but_date(old: str, new: str) -> bool:
    strip = lambda t: re.sub(r"^Recorded: .*$", "", t, flags=re.MULTILINE)
    return strip(old) == strip(new)
