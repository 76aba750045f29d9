"""The doctest child: runs one snippet's statements as doctest examples, in the process it is
given (a fresh one, forked by the parent), and writes what happened as JSON."""

from __future__ import annotations

import doctest
import json
import re
import sys
import traceback
from pathlib import Path

from whatcopy.core.snippets import Snippet, SnippetError
from whatcopy.core.transcript_format import (
    device_description,
    setup_sources,
    traceback_want,
)

PROGRESS = "@@snippet-line "


def reseed() -> None:
    """In a process forked from a server: reseed, from the operating system, the generators a
    fresh interpreter seeds randomly (random's, torch's CPU generator, NumPy's), so children
    never share numbers. CUDA generators start lazily in the child with their usual fixed
    default seed."""
    import random

    random.seed()
    if "torch" in sys.modules:
        sys.modules["torch"].default_generator.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()


class _Runner(doctest.DocTestRunner):
    """A doctest runner that keeps every example's outcome instead of printing a report."""

    def __init__(self, snippet_rel: str, lines: list[int], first_lines: list[int]):
        super().__init__(verbose=False, optionflags=doctest.REPORT_UDIFF)
        self.snippet_rel = snippet_rel
        self.lines = lines  # snippet line of each example's statement (0 for setup examples)
        self.first_lines = first_lines  # snippet line of each example's first line
        self.results: list[dict] = []

    def _frames(self, tb) -> list[traceback.FrameSummary]:
        """The traceback from the snippet's own line down, with doctest's names mapped back."""
        frames = []
        for frame in traceback.extract_tb(tb):
            match = re.fullmatch(r"<doctest .*\[(\d+)\]>", frame.filename)
            if match:
                line = self.first_lines[int(match.group(1))] + (frame.lineno or 1) - 1
                frame = traceback.FrameSummary(self.snippet_rel, line, frame.name, line=frame.line)
            if frames or match:
                frames.append(frame)
        return frames

    def _line(self, example):
        return self.lines[len(self.results)]

    def report_start(self, out, test, example):
        sys.__stderr__.write(f"{PROGRESS}{self._line(example)}\n")
        sys.__stderr__.flush()

    def report_success(self, out, test, example, got):
        self.results.append({"ok": True, "got": got})

    def report_failure(self, out, test, example, got):
        diff = self._checker.output_difference(example, got, self.optionflags)
        self.results.append({"ok": False, "got": got, "diff": diff})

    def report_unexpected_exception(self, out, test, example, exc_info):
        exc_type, exc_value, tb = exc_info
        frames = self._frames(tb)
        self.results.append(
            {
                "ok": False,
                "exception": exc_type.__name__,
                "message": str(exc_value),
                "exception_mro": [c.__name__ for c in exc_type.__mro__],
                "want": traceback_want(exc_type, exc_value),
                "traceback": "".join(
                    traceback.format_list(frames)
                    + traceback.format_exception_only(exc_type, exc_value)
                ),
            }
        )


def _no_echo(value):
    if value is not None:
        raise SnippetError(
            f"this expression evaluates to {type(value).__name__}: a notebook or doctest would "
            "show it but `python snippet.py` would not; print it or assign it"
        )


class _StderrGuard:
    """Stands in for sys.stderr while a snippet runs: output there is not part of a transcript."""

    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s
        return len(s)

    def flush(self):
        pass


def child_run(snippet: Snippet, mode: str, device: str) -> dict:
    """Run one snippet's examples with doctest; return every example's outcome."""
    statements = snippet.statements()
    if mode == "record":
        sources = list(setup_sources(device)) + [s.source for s in statements]
        examples = [doctest.Example(src, "") for src in sources]
    else:
        path = snippet.transcript(device)
        text = path.read_text(encoding="utf-8")
        examples = doctest.DocTestParser().get_examples(text, name=str(path))
        expected = list(setup_sources(device)) + [s.source for s in statements]
        got = [e.source.rstrip("\n") for e in examples]
        if got != expected:
            return {"stale": True}
    setup = [0] * len(setup_sources(device))
    test = doctest.DocTest(examples, {"__name__": "__main__"}, snippet.rel, snippet.rel, 0, None)
    runner = _Runner(
        snippet.rel,
        setup + [s.line for s in statements],
        setup + [s.first_line for s in statements],
    )
    guard = _StderrGuard()
    sys.__displayhook__ = _no_echo  # doctest installs sys.__displayhook__ for each run
    sys.stderr = guard
    try:
        runner.run(test, out=lambda s: None, clear_globs=True)
    finally:
        sys.stderr = sys.__stderr__
    return {"stale": False, "results": runner.results, "stderr": guard.text}


def _child_main(argv: list[str]) -> int:
    mode, device, snippet_path, result_path = argv
    snippet = Snippet(Path(snippet_path))
    try:
        payload = child_run(snippet, mode, device)
        if mode == "record":
            payload["device_label"] = device_description(device)
    except SnippetError as exc:
        payload = {"error": str(exc)}
    Path(result_path).write_text(json.dumps(payload), encoding="utf-8")
    return 0
