"""The command line, on top of every layer: `python -m whatcopy <command>`.

    python -m whatcopy build [--book] [--out DIR] [--site-url URL] [--one-at-a-time] [LANGUAGE ...]
    python -m whatcopy book [--out DIR] [--site-url URL] [LANGUAGE ...]
    python -m whatcopy record|check [--device cpu|cuda] [--root DIR] [SNIPPET ...]
    python -m whatcopy stale [--root DIR]
    python -m whatcopy translations [status | mark docs/zh/<page>.md ...]
    python -m whatcopy bench [--builds | --lighthouse]
    python -m whatcopy op-table changed OLD NEW
    python -m whatcopy compare TESTED_HTML OTHER_HTML

Each command imports only its own layer, when it runs: `record` and `check` need nothing but
the standard library and torch (a GPU machine runs them with nothing else installed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import whatcopy
from whatcopy.languages import LANGUAGES


def languages_and_folder(parser: argparse.ArgumentParser, args) -> tuple[list[str], Path | None]:
    """The languages (all when none is named) and build folder the command line asks for."""
    unknown = set(args.languages) - set(LANGUAGES)
    if unknown:
        parser.error(
            f"unknown language {', '.join(sorted(unknown))}; choose from {', '.join(LANGUAGES)}"
        )
    return args.languages or list(LANGUAGES), args.out.resolve() if args.out else None


def site_parser(name: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m whatcopy {name}", description=description)
    parser.add_argument(
        "languages", nargs="*", help=f"some of {', '.join(LANGUAGES)} (default: all)"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="build folder (default: docs/_build)"
    )
    parser.add_argument(
        "--site-url",
        default=os.environ.get("SITE_URL"),
        help="the address the site is published at, ending in / (default: $SITE_URL)",
    )
    return parser


def build(argv: list[str]) -> int:
    parser = site_parser("build", "Build the site (both languages, at once) into docs/_build/html.")
    parser.add_argument("--book", action="store_true", help="then each language's PDF book")
    parser.add_argument("--one-at-a-time", action="store_true", help="one language after the other")
    parser.add_argument(
        "--jobs", default="auto", help="Sphinx's processes per language (default: auto)"
    )
    args = parser.parse_args(argv)
    languages, out = languages_and_folder(parser, args)
    from whatcopy.site import build as site

    site.build(
        languages, out, one_at_a_time=args.one_at_a_time, jobs=args.jobs, site_url=args.site_url
    )
    if args.book:
        from whatcopy.site import book

        book.make_books(languages, out, args.site_url)
        pack_kits(languages, out)
    return 0


def pack_kits(languages: list[str], out: Path | None) -> None:
    """The teachers' kits again, now that they can hold the books (whatcopy.sphinxext.course_kit;
    an archive already holding them is left as it is)."""
    from whatcopy import project
    from whatcopy.sphinxext import course_kit

    for language in languages:
        site = (out or project.current().build) / "html" / LANGUAGES[language].folder
        if (site / "downloads" / "kit").is_dir():
            course_kit.write_kit(site)


def book(argv: list[str]) -> int:
    parser = site_parser("book", "Print each language's PDF book from the built site.")
    args = parser.parse_args(argv)
    languages, out = languages_and_folder(parser, args)
    from whatcopy.site import book as books

    books.make_books(languages, out, args.site_url)
    pack_kits(languages, out)
    return 0


def transcripts(argv: list[str]) -> int:
    from whatcopy.core import transcripts as harness

    return harness.main(argv)


def stale(argv: list[str]) -> int:
    from whatcopy.core import transcripts as harness

    return harness.stale_main(argv)


def translations(argv: list[str]) -> int:
    from whatcopy.content import translations as status

    return status.main(argv or ["status"])


def bench(argv: list[str]) -> int:
    from whatcopy.site import bench as measure

    measure.main(argv)
    return 0


def compare(argv: list[str]) -> int:
    from whatcopy.site import compare as builds

    return builds.main(argv)


def op_table(argv: list[str]) -> int:
    from whatcopy.reference import op_table as table

    return table.main(argv)


COMMANDS = {
    "build": build,
    "book": book,
    "record": lambda argv: transcripts(["record", *argv]),
    "check": lambda argv: transcripts(["check", *argv]),
    "stale": lambda argv: stale(argv),
    "translations": translations,
    "bench": bench,
    "op-table": op_table,
    "compare": compare,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:]) or 0


if __name__ == "__main__":
    # (the books' PDF objects: about 450 000 per edition; merging a book's sheets spent 0.6
    # CPU-s in the collector at Python's default, 0.1 with this: docs/dev/decisions/0042)
    whatcopy.collect_garbage_less_often()
    sys.exit(main())
