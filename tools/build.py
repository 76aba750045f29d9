"""Build the bilingual site into docs/_build/html: en/, zh-cn/ and a root index.html.

    python tools/build.py            # both languages, warnings are errors
    python tools/build.py en         # one language

English is built first: the Chinese build then finds every cell in the shared jupyter-cache
and executes nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
# name on the command line -> (source folder, output folder under docs/_build/html)
LANGUAGES = {"en": ("en", "en"), "zh": ("zh", "zh-cn")}


def environment_is_stale(doctrees: Path) -> bool:
    """Sphinx re-reads pages whose sources changed, not those whose extensions did."""
    pickle = doctrees / "environment.pickle"
    if not pickle.exists():
        return False
    code = list((DOCS / "_ext").glob("*.py")) + [ROOT / "tools" / "transcripts.py"]
    return max(p.stat().st_mtime for p in code) > pickle.stat().st_mtime


def sphinx_command(language: str, *extra: str) -> list[str]:
    source, out = LANGUAGES[language]
    jobs = os.environ.get("SPHINX_JOBS", "auto")
    return [
        sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-n", "-q",
        "-j", jobs, "-d", str(BUILD / "doctrees" / out), *extra,
        str(DOCS / source), str(HTML / out),
    ]


def build(languages: list[str]) -> None:
    for language in languages:
        started = time.perf_counter()
        doctrees = BUILD / "doctrees" / LANGUAGES[language][1]
        extra = ["-E"] if environment_is_stale(doctrees) else []
        result = subprocess.run(sphinx_command(language, *extra), cwd=ROOT)
        if result.returncode:
            # Nothing half-built is published: drop this language's output, and its
            # environment, or the next build would skip the pages that failed.
            shutil.rmtree(HTML / LANGUAGES[language][1], ignore_errors=True)
            shutil.rmtree(doctrees, ignore_errors=True)
            sys.exit(f"build of docs/{LANGUAGES[language][0]} failed (see the messages above)")
        print(f"built {language} in {time.perf_counter() - started:.1f} s")
    for page in (DOCS / "root").iterdir():
        shutil.copy2(page, HTML / page.name)


if __name__ == "__main__":
    build(sys.argv[1:] or list(LANGUAGES))
