"""Build the bilingual site into docs/_build/html: en/, zh-cn/, a root index.html that sends
the reader to their language, a 404 page and a sitemap.

    python -m whatcopy build            # both languages, warnings are errors
    python -m whatcopy build en         # one language
    python -m whatcopy build --out DIR  # build everything (cache included) under DIR instead

Every page's snippets that have no current run are run, each once, on fork servers
(whatcopy/core/runs.py), while the languages' builds start at the same time; each waits,
before it reads a page, until a pipe from this process says the runs are made, then reads them
and executes nothing (`--one-at-a-time`: the runs, then one language after the other). The
site's address (`site_url`; the command line takes it from SITE_URL) makes the sitemap and the
404 page's links absolute. At the end it prints one line per stale transcript
(``report_stale``), with the command that records it again.
What a language's sphinx-build needs to know it is told as config values (`-D`), not through
the environment: docs/dev/configuration.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

from whatcopy import project
from whatcopy.languages import LANGUAGES, Language  # noqa: F401  (Language: for importers)


def sphinx_args(
    source: Path,
    out: Path,
    doctrees: Path,
    *extra: str,
    jobs: str = "auto",
    quiet: bool = True,
    builder: str = "html",
) -> list[str]:
    """The sphinx-build command of every build of the site: warnings are errors, reported all
    at once (--keep-going), and every reference must resolve (-n)."""
    return [
        sys.executable,
        "-m",
        "whatcopy.site.sphinx_build",  # sphinx-build, its garbage collector set for a build
        "-b",
        builder,
        "-W",
        "--keep-going",
        "-n",
        *(["-q"] if quiet else []),
        "-j",
        jobs,
        "-d",
        str(doctrees),
        *extra,
        str(source),
        str(out),
    ]


def settings(
    build: Path, site_url: str | None = None, runs_ready_fd: int | None = None
) -> list[str]:
    """The config values every sphinx-build of the site is given: the project it builds (its
    root), the build folder (the snippets' runs included), that the snippets are run by
    run_snippets(), not by it, the site's address when known, and, when it starts before the
    runs are made, the pipe on which it is told they are (whatcopy/sphinxext/snippet_runs.py)."""
    return [
        "-D",
        f"whatcopy_root={project.current().root}",
        "-D",
        f"whatcopy_build_dir={build}",
        "-D",
        "whatcopy_run_snippets=0",
        *(["-D", f"site_url={site_url}"] if site_url else []),
        *(["-D", f"whatcopy_runs_ready_fd={runs_ready_fd}"] if runs_ready_fd is not None else []),
    ]


def sphinx_command(
    language: str,
    build: Path,
    *extra: str,
    quiet: bool = True,
    jobs: str = "auto",
    site_url: str | None = None,
    runs_ready_fd: int | None = None,
) -> list[str]:
    lang = LANGUAGES[language]
    return sphinx_args(
        project.current().docs / lang.source,
        build / "html" / lang.folder,
        build / "doctrees" / lang.folder,
        *settings(build, site_url, runs_ready_fd),
        *extra,
        jobs=jobs,
        quiet=quiet,
    )


class Run:
    """One language's sphinx-build, started; `wait()` waits for it. With `before_runs`, it
    starts before the snippets' runs are made and waits for them before it reads a page, until
    `runs_made()` tells it on a pipe (`runs_made(False)`: they failed, it stops)."""

    def __init__(
        self,
        language: str,
        build: Path,
        quiet: bool,
        jobs: str = "auto",
        site_url: str | None = None,
        before_runs: bool = False,
    ):
        self.language, self.build, self.quiet = language, build, quiet
        self.started = time.perf_counter()
        # (closed by wait(), which reads it)
        self.log_file = (
            None if quiet else tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        )
        # (the write end is not inherited: a stopped parent closes it, and the build stops)
        read_end, self.ready = os.pipe() if before_runs else (None, None)
        command = sphinx_command(
            language, build, quiet=quiet, jobs=jobs, site_url=site_url, runs_ready_fd=read_end
        )
        try:
            self.process = subprocess.Popen(
                command,
                cwd=project.current().root,
                text=True,
                stdout=self.log_file,
                stderr=subprocess.STDOUT if not quiet else None,
                pass_fds=() if read_end is None else (read_end,),
            )
        finally:
            if read_end is not None:
                os.close(read_end)

    def runs_made(self, made: bool = True) -> None:
        if self.ready is not None:
            from whatcopy.sphinxext.snippet_runs import READY

            try:
                if made:
                    os.write(self.ready, READY)
            except BrokenPipeError:  # (it stopped before: wait() reports it)
                pass
            os.close(self.ready)
            self.ready = None

    def wait(self) -> tuple[int, float, str]:
        code = self.process.wait()
        seconds = time.perf_counter() - self.started
        log = ""
        if self.log_file is not None:
            self.log_file.seek(0)
            log = self.log_file.read()
            self.log_file.close()
        return code, seconds, log

    def fail(self, log: str) -> None:
        # Nothing half-built is published. (Sphinx itself discards the environment of a build
        # that stopped on an error, so the next build reads every page again.)
        shutil.rmtree(self.build / "html" / LANGUAGES[self.language].folder, ignore_errors=True)
        source = LANGUAGES[self.language].source
        sys.exit(f"{log}\nbuild of docs/{source} failed (see the messages above)")


def run_snippets(languages: list[str], build: Path) -> tuple[float, str]:
    """Run, each once, the snippets that the languages' pages load and that have no current run
    (or whose last run failed), on fork servers of interpreters that have only what a reader
    installs (whatcopy/core/runs.py, whatcopy/execution/clean_env.py); return
    (seconds, one line per snippet run). A snippet's problems are reported by the Sphinx build
    of each page that shows it; only a fork server that cannot start stops the build here."""
    from whatcopy.content import pages as reader
    from whatcopy.core import runs
    from whatcopy.core.snippets import SnippetError
    from whatcopy.execution import clean_env
    from whatcopy.execution.notebooks import cell_snippet

    started = time.perf_counter()
    snippets = []
    for language in languages:
        for page in sorted((project.current().docs / LANGUAGES[language].source).rglob("*.md")):
            try:
                cells = reader.read(page).cells
            except reader.PageError:
                continue  # (its Sphinx build reports it)
            for cell in cells:
                snippet = None if cell.load is None else cell_snippet(page, cell.load)
                if snippet is not None:
                    snippets.append(snippet)
    try:
        ran = runs.run_missing(snippets, build, python_for=clean_env.interpreters(build))
    except (SnippetError, RuntimeError) as exc:  # (a server or an interpreter that fails)
        sys.exit(f"the snippets could not be run: {exc}")
    return time.perf_counter() - started, "".join(f"ran {s.rel}\n" for s in ran)


def build_languages(
    languages: list[str],
    build: Path | None = None,
    quiet: bool = True,
    one_at_a_time: bool = False,
    jobs: str = "auto",
    site_url: str | None = None,
) -> dict[str, tuple[float, str]]:
    """Run the pages' snippets (run_snippets) while the languages build at the same time, each
    in its own process, each waiting for the runs before it reads a page and then only reading
    them: on two cores their starts overlap the runs, and their loads and writes each other.
    Return each one's (seconds from its start, the wait included, log), and under "runs" the
    snippets' (seconds, one line per snippet run); exit with a message when one fails (after the
    others have finished). `one_at_a_time`: the runs, then each language after the other;
    `jobs`: Sphinx's processes per language."""
    build = build or project.current().build
    if one_at_a_time:
        results = {"runs": run_snippets(languages, build)}
        finished = []
        for language in languages:
            run = Run(language, build, quiet, jobs, site_url)
            finished.append((run, *run.wait()))
    else:
        # Each language's start (imports, configuration, theme) overlaps the runs; it waits for
        # them on a pipe before it reads a page.
        started = [Run(language, build, quiet, jobs, site_url, True) for language in languages]
        made = False
        try:
            results = {"runs": run_snippets(languages, build)}
            made = True
        finally:  # (runs that failed or were stopped: each build stops before reading a page)
            for run in started:
                run.runs_made(made)
            if not made:
                for run in started:
                    run.wait()
        finished = [(run, *run.wait()) for run in started]
    failed = [(run, log) for run, code, _, log in finished if code]
    for run, _, seconds, log in finished:
        results[run.language] = (seconds, log)
    if failed:
        for run, *_ in finished:  # nothing of a failed build is published
            shutil.rmtree(build / "html" / LANGUAGES[run.language].folder, ignore_errors=True)
        failed[0][0].fail("\n".join(log for _, log in failed))
    return results


def pages(build: Path) -> list[str]:
    """Pages of the English build (both languages have the same), as paths below its folder."""
    html = build / "html" / "en"
    skip = {"genindex.html", "search.html"}
    return sorted(
        p.relative_to(html).as_posix()
        for p in html.rglob("*.html")
        if p.name not in skip and "_static" not in p.parts and "downloads" not in p.parts
    )


def write_sitemap(build: Path, site_url: str) -> None:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
        ),
    ]
    for page in pages(build):
        for lang in LANGUAGES.values():
            lines.append(f"  <url><loc>{escape(site_url + lang.folder + '/' + page)}</loc>")
            for other in LANGUAGES.values():
                href = escape(site_url + other.folder + "/" + page)
                lines.append(
                    f'    <xhtml:link rel="alternate" hreflang="{other.hreflang}" href="{href}"/>'
                )
            lines.append("  </url>")
    lines.append("</urlset>")
    (build / "html" / "sitemap.xml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_root(build: Path, site_url: str | None) -> None:
    """The language chooser and the 404 page (generated from the languages table, see
    whatcopy/site/root_pages.py), and the sitemap."""
    from whatcopy.site import root_pages  # reads the message catalogs (Sphinx's gettext helpers)

    html = build / "html"
    for name, text in root_pages.pages().items():
        if name == "404.html" and site_url:
            # A 404 is served at the missing page's address: links must not be relative to it.
            text = text.replace("<head>", f'<head>\n<base href="{site_url}">', 1)
        (html / name).write_text(text, encoding="utf-8")
    write_sitemap(build, site_url or "/")


def copy_runs(source: Path, target: Path) -> None:
    """Copy a build folder's snippet runs into another build folder."""
    from whatcopy.core import runs

    # (not the interpreters kept beside them, whose links copytree would copy as files)
    shutil.copytree(
        source / runs.FOLDER, target / runs.FOLDER, ignore=shutil.ignore_patterns("python-*")
    )


def copy_project(target: Path, runs_from: Path | None = None) -> Path:
    """A throwaway copy of everything a build reads, for tests and the benchmark to change;
    with runs_from (a build folder), its snippets' runs too, so nothing runs again."""
    root = project.current().root
    for folder in ("docs", "snippets", "generators", "transcripts"):
        shutil.copytree(
            root / folder, target / folder, ignore=shutil.ignore_patterns("_build", "*.mo")
        )
    shutil.copy(root / "pyproject.toml", target / "pyproject.toml")  # marks the project root
    shutil.copy(root / "LICENSE", target / "LICENSE")  # the course kit's archive holds it
    # the notebooks' kit-setup cells pin what the snippets and generators need beyond torch
    (target / "requirements").mkdir(exist_ok=True)
    for name in ("snippets.txt", "generators.txt"):
        shutil.copy(root / "requirements" / name, target / "requirements" / name)
    if runs_from is not None and (runs_from / "runs").exists():
        copy_runs(runs_from, target / "docs" / "_build")
    return target


def build(
    languages: list[str],
    build: Path | None = None,
    quiet: bool = True,
    one_at_a_time: bool = False,
    jobs: str = "auto",
    site_url: str | None = None,
) -> dict[str, tuple[float, str]]:
    build = build or project.current().build
    results = build_languages(languages, build, quiet, one_at_a_time, jobs, site_url)
    seconds, ran = results["runs"]
    print(f"ran {ran.count(chr(10))} snippets in {seconds:.1f} s")
    for language in languages:
        print(f"built {language} in {results[language][0]:.1f} s")
    if all((build / "html" / lang.folder / "index.html").exists() for lang in LANGUAGES.values()):
        write_root(build, site_url)
    report_stale()
    return results


def report_stale() -> list[str]:
    """Print a line per transcript recorded for another version of its snippet, with the
    command that records it (`python -m whatcopy stale`, which the deploy workflow runs and
    which fails on any): the site shows such a snippet's outputs with a note, and builds."""
    from whatcopy.core import transcripts

    lines = transcripts.stale_lines()
    for line in lines:
        print(line)
    return lines
