"""Print the site's speed and size figures against their targets (`nox -s bench`).

Not a test: the machines here are shared and noisy, so this measures and prints; it does not
fail. It works in a throwaway copy of the project, so the real build is never disturbed.

Figures:
- cold build of both languages (no snippet runs, no environment; built as `python -m
  whatcopy build` builds them: the snippets run once, then both languages at the same time), and
  the floor it is compared with: a Jupyter kernel's start plus `import torch`, measured here,
  times the English pages with code (what executing each page in a new kernel would cost);
- warm rebuild with nothing changed (target: 5 s);
- rebuild after editing one snippet (target: the no-change rebuild plus 1.5 x kernel start and
  `import torch`), and whether exactly that snippet ran again;
- how many snippets the languages' Sphinx processes ran themselves (goal: 0: they read the
  runs made before them);
- per page, the first view's weight (gzip), request count and requests to other hosts,
  measured in Chromium (an empty cache, the page loaded until the network is idle);
- Lighthouse's four scores (mobile) and the layout shift of every page of both languages, over
  a local server that gzips as GitHub Pages does, the site built with that server's address as
  SITE_URL (absolute hreflang and canonical links, as deployed); `--lighthouse` measures only
  these, after one clean build;
- the test suite as `nox -s tests` runs it after its install steps: a clean site build with
  the PDF books and every test, in a fresh clone of the committed HEAD (uncommitted changes
  are not measured).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from whatcopy import project as projects
from whatcopy.languages import LANGUAGES
from whatcopy.site import build
from whatcopy.site.browser import CHROMIUM, CHROMIUM_ARGS, QuietHandler, serving

ROOT = projects.current().root  # this checkout: what is measured is a copy of it

TARGETS = {
    "cold_ratio": 1.3,
    "warm_s": 5.0,
    "first_view_kb": 200,
    "requests": 20,
    "foreign": 0,
    "tests_s": 300,
    # one snippet edited: the no-op rebuild plus this many kernel starts with `import torch`
    "edit_floors": 1.5,
}
EDITED = "detach/stops_gradient"


def kernel_floor(trials: int = 3) -> float:
    """Seconds to start a Jupyter kernel and import torch in it (median of a few trials)."""
    from jupyter_client.manager import start_new_kernel

    times = []
    for _ in range(trials):
        started = time.perf_counter()
        manager, client = start_new_kernel(kernel_name="python3")
        client.execute_interactive("import torch", timeout=120)
        times.append(time.perf_counter() - started)
        client.stop_channels()
        manager.shutdown_kernel(now=True)  # not timed: what the build's kernels do too
    return statistics.median(times)


def executed(log: str) -> int:
    """Snippets a log says were run (build.run_snippets's lines, or snippet_runs.py's)."""
    return len(re.findall(r"^ran \S+\.py$", log, re.MULTILINE))


def pages_with_code(project: Path) -> int:
    return sum(
        "{code-cell}" in p.read_text(encoding="utf-8")
        for p in (project / "docs" / "en").rglob("*.md")
    )


def _keep_body(request, bodies: list[bytes]) -> None:
    with contextlib.suppress(Exception):  # finished as the page closed: nothing more to weigh
        bodies.append(request.response().body())


def page_weights(html: Path, folders: list[str]) -> list[tuple[str, int, int, int]]:
    """(page, gzip bytes, requests, requests to other hosts) of each page's first view, in
    headless Chromium."""
    from urllib.parse import urlsplit

    from playwright.sync_api import sync_playwright

    results = []
    with serving(html) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
        )
        for folder in folders:
            for page in sorted((html / folder).glob("*.html")):
                if page.name in ("genindex.html", "search.html"):
                    continue
                context = browser.new_context()
                tab = context.new_page()
                bodies: list[bytes] = []
                requested: list[str] = []  # every request, finished or not
                tab.on(
                    "requestfinished", lambda request, bodies=bodies: _keep_body(request, bodies)
                )
                tab.on(
                    "request", lambda request, requested=requested: requested.append(request.url)
                )
                tab.goto(f"{base}/{folder}/{page.name}", wait_until="networkidle")
                size = sum(len(gzip.compress(body, compresslevel=6)) for body in bodies)
                foreign = [
                    url
                    for url in requested
                    if urlsplit(url).scheme in ("http", "https", "ws", "wss")
                    and urlsplit(url).netloc != urlsplit(base).netloc
                ]
                results.append((f"{folder}/{page.name}", size, len(requested), len(foreign)))
                context.close()
        browser.close()
    return results


LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
LIGHTHOUSE_GOAL = {"performance": 0.95, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}
CLS_GOAL = 0.1
# Compressed as GitHub Pages compresses: text, not what is compressed already.
COMPRESSED = (".woff2", ".png", ".jpg", ".gif", ".zip", ".pdf")


class GzipHandler(QuietHandler):
    """Serves the site as GitHub Pages does: gzip for a client that accepts it."""

    def send_head(self):
        import io

        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404)
            return None
        body = path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        if "gzip" in self.headers.get("Accept-Encoding", "") and path.suffix not in COMPRESSED:
            body = gzip.compress(body, compresslevel=6, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def gzip_server(folder: Path):
    """A local server of `folder` (which may not exist yet), gzip like GitHub Pages; yields
    its address, ending in /."""
    with serving(folder, GzipHandler) as address:
        yield f"{address}/"


def lighthouse(url: str) -> dict[str, float]:
    """Lighthouse's four scores (mobile, its default) and the cumulative layout shift of one
    page, in Debian's Chromium."""
    import json

    if not LIGHTHOUSE.exists():
        sys.exit(
            f"{LIGHTHOUSE} is missing: run `npm ci` (lighthouse is pinned in package-lock.json)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
        subprocess.run(
            [str(LIGHTHOUSE), url, f"--chrome-path={CHROMIUM}", f"--chrome-flags={flags}"]
            + ["--output=json", f"--output-path={report}", "--quiet"]
            + [f"--only-categories={','.join(CATEGORIES)}"],
            check=True,
            env={**os.environ, "TMPDIR": tmp},
        )
        result = json.loads(report.read_text(encoding="utf-8"))
    scores = {name: result["categories"][name]["score"] for name in CATEGORIES}
    scores["cls"] = result["audits"]["cumulative-layout-shift"]["numericValue"]
    # Lighthouse's own measure of this machine's speed (higher is faster): its performance
    # score simulates a slow phone from the times it measured here, so the same pages score
    # lower on a slower machine. Printed with the table, to compare runs across machines.
    scores["benchmark_index"] = result.get("environment", {}).get("benchmarkIndex")
    scores["failing"] = [
        audit
        for category in result["categories"].values()
        for ref in category["auditRefs"]
        if ref.get("weight")
        and (audit := ref["id"])
        and (result["audits"][audit].get("score") is not None)
        and result["audits"][audit]["score"] < 0.9
    ]
    return scores


def lighthouse_pages(html: Path, base: str) -> list[tuple[str, dict[str, float]]]:
    """Lighthouse over every page of both languages, one after the other (at the same time,
    they would slow each other's performance figures)."""
    results = []
    for lang in LANGUAGES.values():
        for page in sorted((html / lang.folder).glob("*.html")):
            name = f"{lang.folder}/{page.name}"
            results.append((name, lighthouse(base + name)))
    return results


def meets_lighthouse_goal(scores: dict[str, float]) -> bool:
    return scores["cls"] < CLS_GOAL and all(
        scores[name] is not None and scores[name] >= goal for name, goal in LIGHTHOUSE_GOAL.items()
    )


def print_lighthouse(results: list[tuple[str, dict[str, float]]]) -> None:
    goal = ", ".join(f"{name} >= {value:g}" for name, value in LIGHTHOUSE_GOAL.items())
    print(f"\nLighthouse, mobile, gzip served (goal: {goal}, CLS < {CLS_GOAL})")
    indices = sorted(s["benchmark_index"] for _, s in results if s.get("benchmark_index"))
    if indices:
        print(
            f"  this machine's benchmark index (Lighthouse's, higher is faster): median "
            f"{indices[len(indices) // 2]:.0f}, {indices[0]:.0f} to {indices[-1]:.0f}"
        )
    print(f"  {'page':28} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'CLS':>6}")
    for name, scores in results:
        print(
            f"  {name:28} "
            + " ".join(f"{scores[c]:5.2f}" for c in CATEGORIES)
            + f" {scores['cls']:6.3f}  {'meets goal' if meets_lighthouse_goal(scores) else 'MISSES goal: ' + ', '.join(scores['failing'])}"
        )
    missed = [name for name, scores in results if not meets_lighthouse_goal(scores)]
    print(
        f"  pages that miss the goal: {len(missed)} of {len(results)}"
        + (f" ({', '.join(missed)})" if missed else "")
    )


def test_suite() -> tuple[float, str]:
    """Seconds for a clean site build plus every test in a fresh clone of HEAD, and pytest's
    closing line. The install steps of `nox -s tests` (venv, pip, npm) are not counted: the
    clone borrows this checkout's node_modules, and runs with this interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        if (ROOT / "node_modules").is_dir():
            (clone / "node_modules").symlink_to(ROOT / "node_modules")
        # as `nox -s tests` runs: the clone is the project because it is the working directory
        env = dict(os.environ)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "whatcopy", "build", "--book"], cwd=clone, env=env, check=True
        )
        tests = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
    lines = [line for line in tests.stdout.splitlines() if line.strip()]
    return seconds, lines[-1] if lines else f"pytest exited {tests.returncode} and printed nothing"


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lighthouse", action="store_true", help="only a clean build and Lighthouse's scores"
    )
    parser.add_argument(
        "--builds", action="store_true", help="only the build figures (cold, warm, one edit)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        project = build.copy_project(Path(tmp))
        previous = projects.use(project)  # build the copy: its sources, its cache
        module = build
        build_dir = project / "docs" / "_build"
        try:
            with gzip_server(build_dir / "html") as base:
                # the site's address, as the deploy knows it: absolute hreflang and canonical
                # links
                figures = measure(module, project, build_dir, base, args.lighthouse, args.builds)
        finally:
            projects.use(previous.root)
    if args.lighthouse:
        print_lighthouse(figures["lighthouse"])
    else:
        report(figures, builds_only=args.builds)
    keep(figures)


def measure(
    module, project: Path, build_dir: Path, base: str, lighthouse_only: bool, builds_only: bool
) -> dict:
    cold_start = time.perf_counter()
    cold = module.build_languages(list(LANGUAGES), build_dir, quiet=False, site_url=base)
    cold_total = time.perf_counter() - cold_start
    module.write_root(build_dir, base)
    if lighthouse_only:
        return {"lighthouse": lighthouse_pages(build_dir / "html", base)}
    en_executed = pages_with_code(project)
    zh_executed = executed(cold["en"][1]) + executed(cold["zh"][1])  # (by Sphinx itself)
    floor_one = kernel_floor()
    floor = floor_one * en_executed

    warm_start = time.perf_counter()
    warm = module.build_languages(list(LANGUAGES), build_dir, quiet=False, site_url=base)
    warm_total = time.perf_counter() - warm_start

    snippet = project / "snippets" / f"{EDITED}.py"
    snippet.write_text(snippet.read_text() + "# edited by whatcopy/site/bench.py\n")
    edit_start = time.perf_counter()
    edited = module.build_languages(list(LANGUAGES), build_dir, quiet=False, site_url=base)
    edit_total = time.perf_counter() - edit_start
    expected = {EDITED}
    reexecuted = executed(edited["runs"][1]) + executed(edited["en"][1] + edited["zh"][1])
    module.write_root(build_dir, base)
    folders = [lang.folder for lang in LANGUAGES.values()]
    weights = [] if builds_only else page_weights(build_dir / "html", folders)
    scores = [] if builds_only else lighthouse_pages(build_dir / "html", base)
    return {
        "cold": cold,
        "cold_total": cold_total,
        "en_executed": en_executed,
        "cold_runs": executed(cold["runs"][1]),
        "zh_executed": zh_executed,
        "floor_one": floor_one,
        "floor": floor,
        "warm": warm,
        "warm_total": warm_total,
        "edit_total": edit_total,
        "expected": expected,
        "reexecuted": reexecuted,
        "weights": weights,
        "lighthouse": scores,
    }


def report(figures: dict, builds_only: bool = False) -> None:
    cold, cold_total, floor, floor_one = (
        figures["cold"],
        figures["cold_total"],
        figures["floor"],
        figures["floor_one"],
    )
    en_executed, zh_executed, warm, warm_total = (
        figures["en_executed"],
        figures["zh_executed"],
        figures["warm"],
        figures["warm_total"],
    )
    edit_total, expected, reexecuted, weights = (
        figures["edit_total"],
        figures["expected"],
        figures["reexecuted"],
        figures["weights"],
    )

    def verdict(ok: bool) -> str:
        return "meets target" if ok else "MISSES target"

    print("\nBuild (both languages)")
    print(
        f"  cold build:              {cold_total:6.1f} s  (en {cold['en'][0]:.1f} s, zh {cold['zh'][0]:.1f} s)"
    )
    print(
        f"  floor:                   {floor:6.1f} s  = {floor_one:.2f} s kernel start + import torch"
        f" x {en_executed} pages with code"
    )
    ratio = cold_total / floor if floor else float("inf")
    print(
        f"  cold / floor:            {ratio:6.2f}    target <= {TARGETS['cold_ratio']}: {verdict(ratio <= TARGETS['cold_ratio'])}"
    )
    print(
        f"  warm rebuild, no change: {warm_total:6.1f} s  target <= {TARGETS['warm_s']:.0f} s: "
        f"{verdict(warm_total <= TARGETS['warm_s'])}  (ran {executed(warm['runs'][1])} snippets)"
    )
    edit_target = warm_total + TARGETS["edit_floors"] * floor_one
    print(
        f"  rebuild after editing snippets/{EDITED}.py: {edit_total:.1f} s  target <= no change +"
        f" {TARGETS['edit_floors']} x {floor_one:.2f} s = {edit_target:.1f} s: "
        f"{verdict(edit_total <= edit_target)}"
    )
    print(
        f"    ran {reexecuted} snippet(s) again; expected {len(expected)} "
        f"({', '.join(sorted(expected))}): {verdict(reexecuted == len(expected))}"
    )
    print(
        f"  snippets the languages' Sphinx ran (cold): {zh_executed}  goal 0: {verdict(zh_executed == 0)}"
    )
    if builds_only:
        return
    print(
        f"\nFirst view per page (gzip; requests; to other hosts), targets: <= {TARGETS['first_view_kb']} KB,"
        f" <= {TARGETS['requests']} requests, {TARGETS['foreign']} to other hosts"
    )
    for page, size, requests, foreign in weights:
        ok = (
            size <= TARGETS["first_view_kb"] * 1024
            and requests <= TARGETS["requests"]
            and foreign <= TARGETS["foreign"]
        )
        print(
            f"  {page:28} {size / 1024:7.1f} KB  {requests:3d} requests  {foreign} other hosts  {verdict(ok)}"
        )
    heaviest = max(weights, key=lambda w: w[1])
    most = max(weights, key=lambda w: w[2])
    print(
        f"  heaviest: {heaviest[0]} {heaviest[1] / 1024:.1f} KB (target <= {TARGETS['first_view_kb']} KB); "
        f"most requests: {most[0]} {most[2]} (target <= {TARGETS['requests']}); "
        f"requests to other hosts: {sum(w[3] for w in weights)} (target {TARGETS['foreign']})"
    )

    print_lighthouse(figures["lighthouse"])

    seconds, closing = test_suite()
    figures["tests"] = (seconds, closing)
    print("\nTests (what `nox -s tests` runs after installing: a clean build, then pytest)")
    print(
        f"  {seconds:6.1f} s  target <= {TARGETS['tests_s']} s: "
        f"{verdict(seconds <= TARGETS['tests_s'])}  ({closing})"
    )


# Where the latest figures are kept: data for the next person (and the CHANGELOG's deltas), and
# the one table docs/dev/performance.md shows, between these two lines (written here, not by hand).
RESULTS = ROOT / "docs" / "dev" / "bench.json"
TABLE_START = "<!-- bench table: written by `nox -s bench`, do not edit -->"
TABLE_END = "<!-- end of bench table -->"


def keep(figures: dict, results: Path = RESULTS) -> dict:
    """Add this run's figures to `results` (each with its date, commit and machine; a figure
    this run did not measure keeps its last value) and write the table of them into
    performance.md beside it. Returns the figures kept."""
    import datetime
    import json
    import platform

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    stamp = {
        "date": datetime.date.today().isoformat(),
        "commit": commit or "?",
        "machine": f"{os.cpu_count()} cores, {platform.machine()}",
    }
    rows: dict[str, dict] = {}
    if "cold_total" in figures:
        rows["cold build, both languages (s)"] = {"value": round(figures["cold_total"], 1)}
        rows["rebuild with nothing changed (s)"] = {"value": round(figures["warm_total"], 1)}
        rows[f"rebuild after editing snippets/{EDITED}.py (s)"] = {
            "value": round(figures["edit_total"], 1)
        }
        rows["snippets run by the cold build (before Sphinx, by Sphinx)"] = {
            "value": f"{figures.get('cold_runs')}, {figures['zh_executed']}"
        }
    if figures.get("weights"):
        weights = figures["weights"]
        rows["heaviest first view (KB gzip)"] = {
            "value": round(max(w[1] for w in weights) / 1024, 1),
            "page": max(weights, key=lambda w: w[1])[0],
        }
        rows["most requests of a first view"] = {"value": max(w[2] for w in weights)}
        rows["requests to other hosts"] = {"value": sum(w[3] for w in weights)}
    if figures.get("lighthouse"):
        scores = [s for _, s in figures["lighthouse"]]
        rows["Lighthouse performance, lowest page"] = {
            "value": min(s["performance"] for s in scores)
        }
        rows["Lighthouse pages missing the goal"] = {
            "value": sum(not meets_lighthouse_goal(s) for s in scores)
        }
        indices = sorted(s["benchmark_index"] for s in scores if s.get("benchmark_index"))
        if indices:
            stamp["machine"] += f", Lighthouse index {indices[len(indices) // 2]:.0f}"
    if "tests" in figures:
        rows["`nox -s tests` after its installs (s)"] = {
            "value": round(figures["tests"][0], 1),
            "pytest": figures["tests"][1],
        }
    kept = json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}
    for name, row in rows.items():
        kept[name] = {**row, **stamp}
    results.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    page = results.with_name("performance.md")
    table = ["| figure | value | measured |", "| --- | --- | --- |"]
    for name, row in kept.items():
        table.append(
            f"| {name} | {row['value']} | {row['date']}, {row['commit']}, {row['machine']} |"
        )
    text = page.read_text(encoding="utf-8")
    before, _, rest = text.partition(TABLE_START)
    _, _, after = rest.partition(TABLE_END)
    page.write_text(
        f"{before}{TABLE_START}\n" + "\n".join(table) + f"\n{TABLE_END}{after}", encoding="utf-8"
    )
    print(f"\nkept in {results} and the table of {page}")
    return kept


if __name__ == "__main__":
    main()
