"""One session per thing a person does; `python3 -m nox -l` lists them.

Every session installs from requirements/*.txt under the full lock requirements/constraints.txt,
so builds are reproducible, and torch is always exactly the CPU wheel pinned there (never a CUDA
download).  Only `cuda` uses the machine's own Python and torch, for GPU runners without network.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_venv = "yes"
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["tests"]

PYTHON = "3.11"
ROOT = Path(__file__).resolve().parent
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
BROWSER = Path("/usr/bin/chromium")
# The site's languages, read as data (the package is installed in the sessions, not here).
LANGUAGES = {
    key: SimpleNamespace(**fields)
    for key, fields in json.loads((ROOT / "whatcopy" / "languages.json").read_text()).items()
}


def install(session: nox.Session, *names: str) -> None:
    """The requirements files `names` under the lock, then this project's package (editable).

    pip would byte-compile every module it installs, torch's thousands included, one at a time
    (half the install's time); instead each module is compiled when first imported, and cached:
    the session lets Python write its .pyc files even where the environment forbids it
    (PYTHONDONTWRITEBYTECODE), inside its own virtual environment and the ignored __pycache__
    folders of this repository."""
    args = []
    for name in names:
        args += ["-r", f"requirements/{name}.txt"]
    session.install("--no-compile", *args, "-c", str(CONSTRAINTS))
    session.install("--no-compile", "--no-deps", "-e", ".")
    session.env["PYTHONDONTWRITEBYTECODE"] = None  # nox removes a variable set to None


def compile_what_builds_import(session: nox.Session) -> None:
    """Import, once, what the build's Sphinx processes and kernel server import, so that their
    modules are compiled before the build instead of during it (measured: a build with nothing
    compiled took 45.5 s, one after this 6 s step 30.4 s)."""
    session.run(
        "python", "-c", "import torch, numpy, ipykernel, sphinx, myst_nb, sphinx_book_theme"
    )


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site, both languages, into docs/_build/html (`-- en` builds one)."""
    install(session, "docs")
    compile_what_builds_import(session)
    session.run("python", "-m", "whatcopy.build", *session.posargs)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Build the site, then run every check; CUDA checks skip, visibly, without a GPU."""
    install(session, "tests")
    if not (BROWSER.exists() and shutil.which("npm")):
        if os.geteuid() == 0 and shutil.which("apt-get"):
            session.run("bash", ".ci/install-system-packages", external=True)
        else:
            session.error(
                "Chromium or npm is missing: run `sudo bash .ci/install-system-packages` "
                "(Debian chromium, fonts-wqy-microhei, nodejs, npm), then this session again"
            )
    session.run("npm", "ci", "--no-audit", "--no-fund", "--silent", external=True)
    compile_what_builds_import(session)
    session.run("python", "-m", "whatcopy.build")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def record(session: nox.Session) -> None:
    """Re-record the CPU transcripts (all, or the snippets given after --); review the diff."""
    install(session, "snippets")
    session.run("python", "-m", "whatcopy.transcripts", "record", *session.posargs)


@nox.session(python=False)
def cuda(session: nox.Session) -> None:
    """On a GPU machine, with its own torch: `-- check` (default) or `-- record` CUDA transcripts.

    Nothing is installed: the package runs from the repository root with only torch."""
    action, *rest = session.posargs or ["check"]
    session.run("python3", "-m", "whatcopy.transcripts", action, "--device", "cuda", *rest)


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
        "whatcopy",
        "--port",
        "8000",
    )


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Measure and print build times, page weights and request counts against their targets."""
    install(session, "tests")
    compile_what_builds_import(session)
    session.run("python", "-m", "whatcopy.bench")


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
    """ruff check and ruff format --check over all Python (the pre-commit hooks run the same)."""
    install(session, "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def translations(session: nox.Session) -> None:
    """List the Chinese pages that are behind their English twin (`-- mark docs/zh/x.md`)."""
    install(session, "pages")
    session.run("python", "-m", "whatcopy.translations", *(session.posargs or ["status"]))


@nox.session(python=PYTHON)
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
