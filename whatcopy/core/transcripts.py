"""Record and verify the doctest transcripts of the snippets.

Every snippet in ``snippets/`` has one transcript per device in ``transcripts/<device>/``: the
snippet's statements as ``>>>`` examples with the output each one printed, in doctest format,
so ``python -m doctest transcripts/cpu/detach/stops_gradient.txt`` replays it. The programs in
``generators/`` that print the site's reference tables are recorded and checked the same way
(``transcripts/<device>/generators/``); they may need more than torch (see snippets.py).

    python -m whatcopy record [--device cpu|cuda] [--root DIR] [SNIPPET ...]
    python -m whatcopy check  [--device cpu|cuda] [--root DIR] [SNIPPET ...]
    python -m whatcopy stale  [--root DIR]

``stale`` prints one line per transcript recorded for another version of its snippet (or
generator), with the command that records it again, and fails when there is any: it reads
headers and runs nothing, so the build prints it and the deploy workflow refuses to publish on
it. ``record`` runs each snippet and writes its transcript; ``check`` replays each transcript with
doctest and fails, naming the snippet line, when today's output differs, when the snippet changed
after it was recorded, or when it has no transcript.  Each snippet runs in a fresh process with
a time limit, forked from a server that has imported torch once (see ForkServer).  This file needs only the standard library and the torch under test, so a GPU
runner with nothing else installed can use it.

Two comments in a snippet are read here (both are plain Python comments, harmless to a reader):

* ``# raises SomeError`` on the last statement: the snippet is meant to fail there.
* ``# device-dependent: why`` anywhere: its output differs between CPU and CUDA in substance,
  so the site shows both outputs side by side.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from whatcopy.core import snippets as model
from whatcopy.core.child import PROGRESS, child_run
from whatcopy.core.runner import (
    SERVER,
    ForkServer,
    Outcome,
    Timing,
    check_one,
    cuda_available,
    diagnose,
    orphans,
    record_one,
    run_many,
    timeout_s,
)
from whatcopy.core.snippets import (
    DEVICE_DEPENDENT,
    DEVICES,
    RAISES,
    Snippet,
    SnippetError,
    Statement,
    all_generators,
    all_snippets,
    by_name,
    resolve,
    set_root,
)
from whatcopy.core.transcript_format import (
    CUDA_SETUP,
    HEADER_FIELD,
    device_description,
    example_text,
    read_header,
    recorded_output,
    render_transcript,
    same_but_date,
    setup_sources,
    traceback_want,
)

# The command line, and the one name the extensions and tests import the harness by; its parts
# live in snippets, transcript_format, child (the doctest child) and runner (the parent).
__all__ = [
    "CUDA_SETUP",
    "DEVICES",
    "DEVICE_DEPENDENT",
    "HEADER_FIELD",
    "PROGRESS",
    "RAISES",
    "SERVER",
    "ForkServer",
    "Outcome",
    "Snippet",
    "SnippetError",
    "Statement",
    "Timing",
    "all_generators",
    "all_snippets",
    "by_name",
    "check_one",
    "child_run",
    "cuda_available",
    "device_description",
    "diagnose",
    "example_text",
    "main",
    "orphans",
    "read_header",
    "record_one",
    "recorded_output",
    "render_transcript",
    "resolve",
    "run_many",
    "same_but_date",
    "set_root",
    "setup_sources",
    "stale_lines",
    "stale_main",
    "timeout_s",
    "traceback_want",
]


def __getattr__(name: str):
    """ROOT, SNIPPETS, GENERATORS and TRANSCRIPTS: the project now worked on (``set_root``
    changes them)."""
    if name in ("ROOT", "SNIPPETS", "GENERATORS", "TRANSCRIPTS"):
        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def record_command(snippet: Snippet, device: str) -> str:
    """The command that records `snippet`'s transcript for `device` (on a GPU machine for cuda)."""
    if device == "cpu":
        return f"python3 -m nox -s record -- {snippet.rel}"
    return f"python3 -m nox -s {device} -- record {snippet.rel}"


def stale_lines(devices: tuple[str, ...] = DEVICES) -> list[str]:
    """One line per transcript whose header names another version of its snippet than the one
    in the tree (Source-SHA256), with the command that records it again. A missing transcript
    is not stale (`check` reports it)."""
    lines = []
    for snippet in [*all_snippets(), *all_generators()]:
        for device in devices:
            path = snippet.transcript(device)
            if path.exists() and read_header(path).get("Source-SHA256") != snippet.sha256:
                rel = path.relative_to(model.ROOT).as_posix()
                lines.append(
                    f"stale: {rel} was recorded for another version of {snippet.rel}; "
                    f"record it: {record_command(snippet, device)}"
                )
    return lines


def stale_main(argv: list[str] | None = None) -> int:
    """`python -m whatcopy stale`: print the stale transcripts; 1 when there is any."""
    parser = argparse.ArgumentParser(
        prog="python -m whatcopy stale",
        description="List the transcripts recorded for another version of their snippet.",
    )
    parser.add_argument("--root", type=Path, default=model.ROOT, help="the project")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    previous = set_root(args.root)
    try:
        lines = stale_lines()
    finally:
        set_root(previous)
    for line in lines:
        print(line)
    print(f"{len(lines)} stale transcript(s)" if lines else "no stale transcript")
    return 1 if lines else 0


def main(argv: list[str] | None = None, server: ForkServer | None = None) -> int:
    """The command line. `server` (tests): run every snippet on that fork server."""
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["record", "check"])
    parser.add_argument("--device", choices=DEVICES, default="cpu")
    parser.add_argument(
        "--root",
        type=Path,
        default=model.ROOT,
        help="the project: its snippets/ and transcripts/ (default: %(default)s)",
    )
    parser.add_argument("snippets", nargs="*", help="snippet files or folders (default: all)")
    args = parser.parse_args(argv)
    previous = set_root(args.root)
    try:
        return _main(args, server)
    finally:
        set_root(previous)


def _main(args: argparse.Namespace, server: ForkServer | None) -> int:
    if server is None and args.device == "cuda" and not cuda_available():
        print("CUDA is not available here: nothing recorded or checked for cuda.")
        return 1
    snippets = resolve(args.snippets)
    action = record_one if args.action == "record" else check_one
    timing = Timing([], [])
    if server is None:
        outcomes = run_many(action, snippets, args.device, timing=timing)
    else:
        outcomes = [action(snippet, args.device, server) for snippet in snippets]
    failed = [o for o in outcomes if not o.ok]
    for outcome in outcomes:
        status = "FAIL" if not outcome.ok else ("wrote" if outcome.written else "ok")
        print(f"{status:5} {outcome.snippet.rel} [{args.device}]")
    for outcome in failed:
        print("\n" + "\n".join(outcome.problems), file=sys.stderr)
    if args.action == "check" and not args.snippets:
        for path in orphans(args.device):
            print(
                f"\n{path.relative_to(model.ROOT)}: transcript of a snippet that no longer exists",
                file=sys.stderr,
            )
            failed.append(None)
    print(
        f"\n{len(outcomes) - len(failed)} ok, {len(failed)} failed ({args.device}, {args.action})"
    )
    if server is None:
        print(timing.summary())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
