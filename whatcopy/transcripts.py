"""Record and verify the doctest transcripts of the snippets.

Every snippet in ``snippets/`` has one transcript per device in ``transcripts/<device>/``: the
snippet's statements as ``>>>`` examples with the output each one printed, in doctest format,
so ``python -m doctest transcripts/cpu/detach/stops_gradient.txt`` replays it.

    python -m whatcopy.transcripts record [--device cpu|cuda] [--root DIR] [SNIPPET ...]
    python -m whatcopy.transcripts check  [--device cpu|cuda] [--root DIR] [SNIPPET ...]

``record`` runs each snippet and writes its transcript; ``check`` replays each transcript with
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
import ast
import concurrent.futures
import contextlib
import dataclasses
import datetime
import doctest
import hashlib
import json
import os
import platform
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from whatcopy.root import find_root

ROOT = find_root()  # $WHATCOPY_ROOT, or above the working directory; --root changes it
SNIPPETS = ROOT / "snippets"
TRANSCRIPTS = ROOT / "transcripts"
DEVICES = ("cpu", "cuda")


def timeout_s() -> float:
    """Seconds a snippet may run (SNIPPET_TIMEOUT, read when it starts; default 60)."""
    return float(os.environ.get("SNIPPET_TIMEOUT", "60"))


def set_root(root: Path) -> Path:
    """Work on the project at `root` (its snippets/ and transcripts/); return the previous root."""
    global ROOT, SNIPPETS, TRANSCRIPTS
    previous = ROOT
    ROOT = Path(root).resolve()
    SNIPPETS, TRANSCRIPTS = ROOT / "snippets", ROOT / "transcripts"
    return previous


RAISES = re.compile(r"#\s*raises\s+([A-Za-z_][\w.]*)")
DEVICE_DEPENDENT = re.compile(r"^#\s*device-dependent:\s*(.+)$", re.MULTILINE)
CUDA_SETUP = (
    "import torch",
    'torch.set_default_device("cuda")  # added by the recorder for the CUDA pass',
)
HEADER_FIELD = re.compile(r"^([A-Z][\w-]*): (.*)$", re.MULTILINE)
PROGRESS = "@@snippet-line "
SERVER = "import sys; from whatcopy.transcripts import main; sys.exit(main(['_server']))"


class SnippetError(Exception):
    """A problem with one snippet, already phrased for the person who must fix it."""


@dataclasses.dataclass(frozen=True)
class Statement:
    line: int  # line of the statement itself (after any leading comments)
    first_line: int  # first line of the example, leading comments included
    source: str


@dataclasses.dataclass(frozen=True)
class Snippet:
    path: Path

    @property
    def rel(self) -> str:
        return self.path.resolve().relative_to(ROOT).as_posix()

    @property
    def name(self) -> str:
        """``detach/stops_gradient``: the snippet's path below snippets/, without .py."""
        return self.path.resolve().relative_to(SNIPPETS).with_suffix("").as_posix()

    @property
    def source(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SnippetError(f"{self.rel}: snippet file not found") from None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()

    @property
    def claim(self) -> str:
        doc = ast.get_docstring(self._tree())
        if not doc:
            raise SnippetError(f"{self.rel}:1: a snippet starts with a docstring stating its claim")
        return " ".join(doc.split())

    @property
    def device_dependent(self) -> str | None:
        match = DEVICE_DEPENDENT.search(self.source)
        return match.group(1).strip() if match else None

    @property
    def raises(self) -> str | None:
        """The exception the last statement is declared to raise, if any."""
        statements = self.statements()
        for stmt in statements[:-1]:
            if RAISES.search(stmt.source):
                raise SnippetError(
                    f"{self.rel}:{stmt.line}: only the last statement may be marked "
                    "'# raises ...': a snippet meant to fail ends at the failing line"
                )
        match = RAISES.search(statements[-1].source) if statements else None
        return match.group(1) if match else None

    def transcript(self, device: str) -> Path:
        return TRANSCRIPTS / device / f"{self.name}.txt"

    def _tree(self) -> ast.Module:
        try:
            return ast.parse(self.source, filename=self.rel)
        except SyntaxError as exc:
            raise SnippetError(f"{self.rel}:{exc.lineno}: syntax error: {exc.msg}") from None

    def statements(self) -> list[Statement]:
        """Top-level statements, each with the comment lines right above it, docstring left out.

        Statements that share a line (``a = 1; b = 2``) stay together as one example.
        """
        tree = self._tree()
        lines = self.source.splitlines()
        body = list(tree.body)
        if body and ast.get_docstring(tree) is not None:
            body = body[1:]
        groups: list[list[int]] = []  # [start, end] line spans, 1-based, inclusive
        for node in body:
            start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            end = node.end_lineno or node.lineno
            if groups and start <= groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], end)
            else:
                groups.append([start, end])
        statements = []
        previous_end = 0
        for start, end in groups:
            first = start
            while first - 1 > previous_end and lines[first - 2].lstrip().startswith("#"):
                first -= 1
            text = "\n".join(lines[first - 1 : end])
            statements.append(Statement(line=start, first_line=first, source=text))
            previous_end = end
        return statements


def all_snippets() -> list[Snippet]:
    return [Snippet(p) for p in sorted(SNIPPETS.rglob("*.py"))]


def resolve(paths: list[str]) -> list[Snippet]:
    if not paths:
        return all_snippets()
    found = []
    for arg in paths:
        path = Path(arg)
        if not path.is_absolute():
            path = (Path.cwd() / path) if (Path.cwd() / path).exists() else ROOT / path
        if path.is_dir():
            found += [Snippet(p) for p in sorted(path.rglob("*.py"))]
        else:
            found.append(Snippet(path))
    return found


# --------------------------------------------------------------------------------------------
# Transcript files


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


# --------------------------------------------------------------------------------------------
# Running one snippet (in a child interpreter)


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


# --------------------------------------------------------------------------------------------
# The parent side: run snippets in fresh processes, judge the outcomes


@dataclasses.dataclass
class Outcome:
    snippet: Snippet
    device: str
    problems: list[str]
    written: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


class ForkServer:
    """A child interpreter that imports torch once, then forks one fresh process per snippet.

    ``import torch`` costs about 2 s; forking a process that has already paid it costs a few
    milliseconds. Each forked child is as clean as a new interpreter for a snippet: it starts
    from the server's state, in which no torch operation has run and CUDA is not initialised,
    in an empty working folder that is also its ``sys.path[0]``, with its own stdout and stderr
    files, and with the generators a fresh interpreter seeds randomly (torch's CPU generator,
    NumPy's, ``random``'s) reseeded from the operating system, so an unseeded snippet never
    sees its siblings' numbers; CUDA's start in the child with their usual default seed. ``python`` is the interpreter to use (default: this one); with
    ``clean=True`` the server gets no ``PYTHONPATH``-like variables, so it sees exactly that
    interpreter's packages.
    """

    def __init__(self, device: str, python: str | None = None, clean: bool = False):
        env = dict(os.environ)
        if clean:
            env = {k: v for k, v in env.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env.update(PYTHONHASHSEED="0", PYTHONUNBUFFERED="1")
        if device == "cpu":
            env["CUDA_VISIBLE_DEVICES"] = ""
        self._home = tempfile.TemporaryDirectory()
        started = time.perf_counter()
        # Started from the folder holding this package, so an interpreter that has only torch
        # (not this package installed) finds it. With `-c`, sys.path[0] is "", the working
        # folder of the moment: each child changes into its own empty folder, which is thus
        # its sys.path[0], as for `python snippet.py` (sys.path itself is never edited).
        package_parent = Path(sys.modules["whatcopy"].__path__[0]).resolve().parent
        self._proc = subprocess.Popen(
            [python or sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=package_parent,
            env=env,
        )
        self._buffer = b""
        ready = self._readline(timeout_s() + 60)
        if ready != "ready":
            self.close()
            raise SnippetError(f"the snippet server did not start (it said {ready!r})")
        self.start_s = time.perf_counter() - started  # what a fresh interpreter would pay
        self.runs: list[float] = []

    def _readline(self, timeout: float | None) -> str | None:
        """One line from the server, or None when nothing came within `timeout` seconds."""
        fd = self._proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return "closed"
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def run(self, snippet: Snippet, mode: str, device: str) -> dict:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as workdir:
            request = {
                "mode": mode,
                "device": device,
                "snippet": str(snippet.path),
                "workdir": workdir,
                "root": str(ROOT),
            }
            self._proc.stdin.write((json.dumps(request) + "\n").encode())
            self._proc.stdin.flush()
            answer = self._readline(30) or ""
            if not answer.startswith("pid "):
                raise SnippetError(f"{snippet.rel}: the snippet server failed ({answer!r})")
            pid = int(answer.split()[1])
            limit = timeout_s()
            answer = self._readline(limit)
            timed_out = answer is None
            if timed_out:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                answer = self._readline(30) or ""
            err = Path(workdir, "stderr").read_text(encoding="utf-8", errors="replace")
            if timed_out:
                marks = re.findall(rf"^{PROGRESS}(\d+)$", err, re.MULTILINE)
                where = f"{snippet.rel}:{marks[-1]}" if marks else snippet.rel
                raise SnippetError(f"{where}: still running after {limit:g} s (hangs?)")
            stray = re.sub(rf"^{PROGRESS}\d+\n", "", err, flags=re.MULTILINE)
            leaked = Path(workdir, "stdout").read_text(encoding="utf-8", errors="replace")
            if leaked:  # written to file descriptor 1 directly, around doctest's capture
                stray += f"(and to stdout, where no transcript sees it:)\n{leaked}"
            result_path = Path(workdir, "result.json")
            if not result_path.exists():
                raise SnippetError(
                    f"{snippet.rel}: the process running it died ({answer}):\n{stray}"
                )
            payload = json.loads(result_path.read_text(encoding="utf-8"))
        self.runs.append(time.perf_counter() - started)
        if "error" in payload:
            raise SnippetError(payload["error"])
        payload["stray_stderr"] = stray
        return payload

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc.stdout.close()
        self._home.cleanup()


def _server_main() -> int:
    """The server side of ForkServer: import torch, then fork a child per request on stdin."""
    import random

    with contextlib.suppress(ImportError):
        import torch  # noqa: F401  (the point: children inherit it already imported)
    protocol = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)  # nothing the server or a child prints can reach the protocol pipe

    def say(text: str) -> None:
        os.write(protocol, (text + "\n").encode())

    say("ready")
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(protocol)
                workdir = request["workdir"]
                os.chdir(workdir)
                for fd, name in ((1, "stdout"), (2, "stderr")):
                    target = os.open(Path(workdir, name), os.O_WRONLY | os.O_CREAT, 0o644)
                    os.dup2(target, fd)
                    os.close(target)
                os.dup2(devnull, 0)
                sys.argv = [request["snippet"]]
                set_root(Path(request["root"]))
                random.seed()
                if "torch" in sys.modules:
                    # The CPU generator only, as a fresh interpreter seeds it; CUDA generators
                    # start lazily in the child with their usual fixed default seed.
                    sys.modules["torch"].default_generator.seed()
                if "numpy" in sys.modules:
                    sys.modules["numpy"].random.seed()
                code = _child_main(
                    [
                        request["mode"],
                        request["device"],
                        request["snippet"],
                        str(Path(workdir, "result.json")),
                    ]
                )
            except BaseException:  # noqa: BLE001  (reported through stderr and the exit code)
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        say(f"pid {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"exit {os.waitstatus_to_exitcode(status)}")
    return 0


def _spawn(snippet: Snippet, mode: str, device: str, server: ForkServer | None = None) -> dict:
    """Run one snippet in a fresh process (forked from `server`, or from a new one)."""
    if server is not None:
        return server.run(snippet, mode, device)
    server = ForkServer(device)
    try:
        return server.run(snippet, mode, device)
    finally:
        server.close()


def _judge_exceptions(snippet: Snippet, payload: dict, device: str) -> list[str]:
    """Problems with exceptions: only the declared one, of the declared type, on the last line."""
    problems = []
    statements = snippet.statements()
    results = payload["results"][len(setup_sources(device)) :]
    declared = snippet.raises
    for index, (stmt, res) in enumerate(zip(statements, results)):
        if "exception" not in res:
            continue
        if res["exception"] == "SnippetError":  # raised by the harness itself, e.g. _no_echo
            problems.append(f"{snippet.rel}:{stmt.line}: {res['message']}")
            continue
        is_last = index == len(statements) - 1
        if is_last and declared and declared.split(".")[-1] in res["exception_mro"]:
            continue
        if is_last and declared:
            problems.append(
                f"{snippet.rel}:{stmt.line}: declared '# raises {declared}' but raised "
                f"{res['exception']}:\n{res['traceback']}"
            )
        else:
            problems.append(
                f"{snippet.rel}:{stmt.line}: unexpected {res['exception']} (mark the last "
                f"statement '# raises {res['exception']}' if the snippet is meant to fail):\n"
                f"{res['traceback']}"
            )
    if declared and results and "exception" not in results[-1]:
        problems.append(
            f"{snippet.rel}:{statements[-1].line}: declared '# raises {declared}' "
            "but ran without raising"
        )
    return problems


def _judge_stderr(snippet: Snippet, payload: dict) -> list[str]:
    text = payload.get("stderr", "") + payload.get("stray_stderr", "")
    if not text.strip():
        return []
    return [
        f"{snippet.rel}: wrote to stderr (a warning?); a transcript only holds what is printed. "
        "Catch it with warnings.catch_warnings(record=True) and print it, or avoid it:\n" + text
    ]


def record_one(snippet: Snippet, device: str, server: ForkServer | None = None) -> Outcome:
    try:
        payload = _spawn(snippet, "record", device, server)
        problems = _judge_exceptions(snippet, payload, device) + _judge_stderr(snippet, payload)
        if problems:
            return Outcome(snippet, device, problems)
        results = payload["results"][len(setup_sources(device)) :]
        outputs = [r["want"] if "exception" in r else r["got"] for r in results]
        text = render_transcript(snippet, device, payload["device_label"], outputs)
    except SnippetError as exc:
        return Outcome(snippet, device, [str(exc)])
    path = snippet.transcript(device)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old is not None and same_but_date(old, text):
        return Outcome(snippet, device, [])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return Outcome(snippet, device, [], written=True)


def diagnose(snippet: Snippet, device: str = "cpu", server: ForkServer | None = None) -> list[str]:
    """Run a snippet as `record` would, write nothing, and return its problems."""
    try:
        payload = _spawn(snippet, "record", device, server)
    except SnippetError as exc:
        return [str(exc)]
    return _judge_exceptions(snippet, payload, device) + _judge_stderr(snippet, payload)


def check_one(snippet: Snippet, device: str, server: ForkServer | None = None) -> Outcome:
    path = snippet.transcript(device)
    rel = path.relative_to(ROOT).as_posix()
    hint = f"run `nox -s record -- {snippet.rel}` and review the diff"
    if not path.exists():
        return Outcome(snippet, device, [f"{snippet.rel}: no {device} transcript ({rel}); {hint}"])
    try:
        if read_header(path).get("Source-SHA256") != snippet.sha256:
            return Outcome(
                snippet, device, [f"{snippet.rel} changed after {rel} was recorded; {hint}"]
            )
        payload = _spawn(snippet, "check", device, server)
        if payload["stale"]:
            return Outcome(
                snippet, device, [f"{rel}: its examples are not {snippet.rel}'s statements; {hint}"]
            )
        problems = []
        statements = snippet.statements()
        results = payload["results"][len(setup_sources(device)) :]
        for stmt, res in zip(statements, results):
            if res["ok"]:
                continue
            if "exception" in res:
                problems.append(
                    f"{snippet.rel}:{stmt.line}: unexpected {res['exception']} "
                    f"(transcript {rel}):\n{res['traceback']}"
                )
            else:
                problems.append(
                    f"{snippet.rel}:{stmt.line}: output differs from {rel}\n"
                    f"{stmt.source}\n{res['diff']}"
                )
        problems += _judge_stderr(snippet, payload)
        return Outcome(snippet, device, problems)
    except SnippetError as exc:
        return Outcome(snippet, device, [str(exc)])


def orphans(device: str) -> list[Path]:
    """Transcripts whose snippet no longer exists."""
    folder = TRANSCRIPTS / device
    if not folder.exists():
        return []
    names = {s.name for s in all_snippets()}
    return [
        p
        for p in sorted(folder.rglob("*.txt"))
        if p.relative_to(folder).with_suffix("").as_posix() not in names
    ]


@dataclasses.dataclass
class Timing:
    """What the fork servers saved: each server's start is what a fresh interpreter would pay."""

    servers_s: list[float]
    runs_s: list[float]

    def summary(self) -> str:
        if not self.servers_s or not self.runs_s:
            return "no snippet ran"
        start = sum(self.servers_s) / len(self.servers_s)
        per_run = sum(self.runs_s) / len(self.runs_s)
        return (
            f"{len(self.runs_s)} snippets forked from {len(self.servers_s)} server(s) that imported "
            f"torch in {start:.1f} s; {per_run * 1000:.0f} ms per snippet, against about "
            f"{start + per_run:.1f} s in a fresh interpreter ({(start + per_run) / per_run:.0f}x)"
        )


def run_many(
    action,
    snippets: list[Snippet],
    device: str,
    jobs: int | None = None,
    python: str | None = None,
    clean: bool = False,
    timing: Timing | None = None,
) -> list[Outcome]:
    """`action(snippet, device, server)` for each snippet, in parallel, each on a fork server.

    `python` and `clean` choose the interpreter that runs the snippets (see ForkServer).
    """
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(snippets)))
    if not snippets:
        return []
    local = threading.local()
    servers: list[ForkServer] = []
    lock = threading.Lock()

    def task(snippet: Snippet) -> Outcome:
        if getattr(local, "server", None) is None:
            local.server = ForkServer(device, python=python, clean=clean)
            with lock:
                servers.append(local.server)
        return action(snippet, device, local.server)

    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            return list(pool.map(task, snippets))
    finally:
        for server in servers:
            if timing is not None:
                timing.servers_s.append(server.start_s)
                timing.runs_s.extend(server.runs)
            server.close()


def cuda_available() -> bool:
    """Asked in a child interpreter, so this process never initialises CUDA."""
    code = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    return (
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=False).returncode
        == 0
    )


def main(argv: list[str] | None = None, server: ForkServer | None = None) -> int:
    """The command line. `server` (tests): run every snippet on that fork server."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_server":
        return _server_main()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["record", "check"])
    parser.add_argument("--device", choices=DEVICES, default="cpu")
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
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
                f"\n{path.relative_to(ROOT)}: transcript of a snippet that no longer exists",
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
