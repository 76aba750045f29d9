"""The parent: runs snippets in fresh processes forked from a server that imported torch once
(ForkServer), judges what they printed and raised against their transcripts, records them."""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import doctest
import gc
import json
import os
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

from whatcopy.core import snippets as model
from whatcopy.core.child import PROGRESS, _child_main, reseed
from whatcopy.core.snippets import Snippet, SnippetError, all_generators, all_snippets, set_root
from whatcopy.core.transcript_format import (
    read_header,
    render_transcript,
    same_but_date,
    setup_sources,
)


def timeout_s() -> float:
    """Seconds a snippet may run, from its first statement (SNIPPET_TIMEOUT, read when it
    starts; default 60)."""
    return float(os.environ.get("SNIPPET_TIMEOUT", "60"))


# A generator sweeps the zoo or PyTorch's operator database in one program: operators.py took
# about 25 s on a quiet machine and over 60 s (the snippets' limit) at a load of 16 on 2 cores.
GENERATOR_TIMEOUT_FACTOR = 5


def timeout_for(snippet: Snippet) -> float:
    """Seconds `snippet` may run from its first statement: timeout_s(), five times that for a
    generator."""
    return timeout_s() * (GENERATOR_TIMEOUT_FACTOR if snippet.is_generator else 1)


def start_timeout_s() -> float:
    """Seconds a server may take to start (to import torch), and a forked process to reach its
    snippet's first statement (SNIPPET_START_TIMEOUT; default 600). Not the snippet's limit: on
    a busy machine starting takes many times its usual 2 s, and a snippet is not to blame for
    it. A server that fails exits, which is seen at once; only one that hangs waits this out."""
    return float(os.environ.get("SNIPPET_START_TIMEOUT", "600"))


SERVER = "import sys; from whatcopy.core.runner import _server_main; sys.exit(_server_main())"
NO_COMPILER = "WHATCOPY_NO_COMPILER_PRELOAD"  # (set by ForkServer(compiler=False))


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
    """A child interpreter that imports torch once (and the compiler stack torch imports on
    first use: preload_compiler), then forks one fresh process per snippet.

    ``import torch`` costs about 2 s; forking a process that has already paid it costs a few
    milliseconds. Each forked child is as clean as a new interpreter for a snippet: it starts
    from the server's state, in which no torch operation has run and CUDA is not initialised,
    in an empty working folder that is also its ``sys.path[0]``, with its own stdout and stderr
    files, and with the generators a fresh interpreter seeds randomly (torch's CPU generator,
    NumPy's, ``random``'s) reseeded from the operating system, so an unseeded snippet never
    sees its siblings' numbers; CUDA's start in the child with their usual default seed. ``python`` is the interpreter to use (default: this one); with
    ``clean=True`` the server gets no ``PYTHONPATH``-like variables, so it sees exactly that
    interpreter's packages. With ``generators`` (the generators' folder) it runs generators
    only: they import the modules beside them (generators/zoo.py), as ``python generators/x.py``
    finds them in its folder, so that folder is on this server's ``PYTHONPATH``; a teacher's
    snippet runs on a server without it, and sees only what is installed.
    """

    def __init__(
        self,
        device: str,
        python: str | None = None,
        clean: bool = False,
        compiler: bool = True,
        generators: Path | None = None,
    ):
        env = dict(os.environ)
        if clean:
            env = {k: v for k, v in env.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env.update(PYTHONHASHSEED="0", PYTHONUNBUFFERED="1")
        self.generators = generators
        if generators is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(generators), env.get("PYTHONPATH")])
            )
        if not compiler:  # a server for a snippet or two: not worth preloading the compiler
            env[NO_COMPILER] = "1"
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
        ready = self._readline(start_timeout_s())
        if not (ready or "").startswith("ready "):
            self.close()
            raise SnippetError(f"the snippet server did not start (it said {ready!r})")
        # What a fresh interpreter would pay: starting and `import torch` (the server's start
        # without the compiler stack it preloads, which most snippets never import).
        self.start_s = time.perf_counter() - started - float(ready.split()[1])
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

    def _wait_for_exit(self, stderr: Path, limit: float) -> str | None:
        """The server's word that the child exited; None when the snippet ran `limit` seconds
        from its first statement (its first progress mark), or the child did not reach that
        statement within start_timeout_s()."""
        mark = PROGRESS.encode()
        now = time.monotonic()
        deadline = now + start_timeout_s()
        running = False
        while True:
            if not running and stderr.exists() and mark in stderr.read_bytes():
                running, deadline = True, now + limit
            answer = self._readline(max(0.0, min(deadline - now, 0.05 if not running else 1e9)))
            if answer is not None:
                return answer
            now = time.monotonic()
            if now >= deadline:
                return None

    def run(self, snippet: Snippet, mode: str, device: str) -> dict:
        if snippet.is_generator != (self.generators is not None):
            kind = "generator" if snippet.is_generator else "teacher's snippet"
            raise SnippetError(f"{snippet.rel}: a {kind} runs on a server of its kind (server_for)")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as workdir:
            request = {
                "mode": mode,
                "device": device,
                "snippet": str(snippet.path),
                "workdir": workdir,
                "root": str(model.ROOT),
            }
            self._proc.stdin.write((json.dumps(request) + "\n").encode())
            self._proc.stdin.flush()
            answer = self._readline(start_timeout_s()) or ""
            if not answer.startswith("pid "):
                raise SnippetError(f"{snippet.rel}: the snippet server failed ({answer!r})")
            pid = int(answer.split()[1])
            limit = timeout_for(snippet)
            answer = self._wait_for_exit(Path(workdir, "stderr"), limit)
            timed_out = answer is None
            if timed_out:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                answer = self._readline(start_timeout_s()) or ""
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


def preload_compiler() -> None:
    """In the fork server, after torch: import torch's compiler stack too.

    torch imports it (torch._dynamo, with SymPy) the first time a process steps an optimizer or
    uses forward-mode AD, about 1.3 s here, which the server then pays once instead of in every
    such child. Only where torch is built without CUDA or CUDA is hidden, as a precaution not
    checked on a GPU here: PyTorch does not support CUDA in a child forked after the parent
    initialised it, and whether a CUDA build's compiler stack touches the driver while
    importing is not known here."""
    torch = sys.modules.get("torch")
    if torch is None or os.environ.get(NO_COMPILER):
        return
    if torch.backends.cuda.is_built() and os.environ.get("CUDA_VISIBLE_DEVICES") != "":
        return
    with contextlib.suppress(ImportError):
        import torch._dynamo  # (the point: children inherit it already imported)


def _server_main() -> int:
    """The server side of ForkServer: import torch (and preload_compiler), then fork a child per
    request on stdin."""
    with contextlib.suppress(ImportError):
        import torch  # noqa: F401  (the point: children inherit it already imported)
    started = time.perf_counter()
    preload_compiler()
    preloading_s = time.perf_counter() - started
    # What is imported now lives as long as the server: out of the garbage collector's sight
    # (gc.freeze), so a child's collections do not walk torch's objects or write to their pages,
    # which the child would then copy (Python's advice for a process that forks without exec).
    # The 189 snippets' children: a third less CPU, 37 % fewer page faults (decision 0041).
    gc.freeze()
    protocol = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 1)  # nothing the server or a child prints can reach the protocol pipe

    def say(text: str) -> None:
        os.write(protocol, (text + "\n").encode())

    say(f"ready {preloading_s:.3f}")
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
                reseed()
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


def generators_folder(snippet: Snippet) -> Path | None:
    """What ForkServer's `generators` is for a server that runs this snippet or generator."""
    return model.GENERATORS if snippet.is_generator else None


def _spawn(snippet: Snippet, mode: str, device: str, server: ForkServer | None = None) -> dict:
    """Run one snippet in a fresh process (forked from `server`, or from a new one)."""
    if server is not None:
        return server.run(snippet, mode, device)
    server = ForkServer(device, generators=generators_folder(snippet))
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
    return page_run(snippet, device, server)["problems"]


def page_run(snippet: Snippet, device: str = "cpu", server: ForkServer | None = None) -> dict:
    """Run a snippet as `record` would, write nothing, and return what a page shows of it and
    its problems: ``{"outputs": [...], "problems": [...], "results": [...]}``.

    The outputs are a notebook cell's (nbformat 4, as plain dicts), as a Jupyter kernel running
    the snippet's file as one cell would give them: what it printed as one ``stdout`` stream,
    then, if a statement raised, an ``error`` output, and nothing after that statement. The
    error's traceback is IPython's in its ``Minimal`` mode (the exception's name and message
    only), coloured as IPython colours it. Problems (an exception it does not declare, output
    on stderr, a hang) are the ones `record` would report, each naming the snippet's file and
    line; what wrote to stderr is not an output. "results" is what each statement printed or
    raised, as a transcript records it: `against_transcript` compares it with the snippet's
    transcript (for the tests: a page shows what ran, whatever its transcript says)."""
    try:
        payload = _spawn(snippet, "record", device, server)
    except SnippetError as exc:
        return {"outputs": [], "problems": [str(exc)], "results": []}
    problems = _judge_exceptions(snippet, payload, device) + _judge_stderr(snippet, payload)
    printed, error = "", None
    for result in payload["results"][len(setup_sources(device)) :]:
        if "exception" in result:
            error = result
            break
        printed += result["got"]
    outputs = []
    if printed:
        outputs.append({"output_type": "stream", "name": "stdout", "text": printed})
    if error is not None:
        name, message = error["exception"], error["message"]
        red = "\x1b[31m{}\x1b[39m".format  # IPython's colour for an exception's name
        line = f"{red(name)}{red(':')} {message}\n" if message else f"{red(name)}\n"
        outputs.append(
            {"output_type": "error", "ename": name, "evalue": message, "traceback": [line]}
        )
    results = [
        {"exception": r["exception"], "want": r["want"]} if "exception" in r else {"got": r["got"]}
        for r in payload["results"]
    ]
    return {"outputs": outputs, "problems": problems, "results": results}


def against_transcript(snippet: Snippet, device: str, run: dict) -> list[str]:
    """How a run (page_run's, or a `record` payload) differs from the snippet's transcript,
    statement by statement, as `check_one` judges it (doctest's comparison of each example's
    output); [] when it is the transcript's."""
    path = snippet.transcript(device)
    rel = path.relative_to(model.ROOT).as_posix()
    hint = f"run `nox -s record -- {snippet.rel}` and review the diff"
    if not path.exists():
        return [f"{snippet.rel}: no {device} transcript ({rel}); {hint}"]
    if read_header(path).get("Source-SHA256") != snippet.sha256:
        return [f"{snippet.rel} changed after {rel} was recorded; {hint}"]
    examples = doctest.DocTestParser().get_examples(path.read_text(encoding="utf-8"), str(path))
    statements = snippet.statements()
    setup = len(setup_sources(device))
    expected = list(setup_sources(device)) + [s.source for s in statements]
    if [e.source.rstrip("\n") for e in examples] != expected:
        return [f"{rel}: its examples are not {snippet.rel}'s statements; {hint}"]
    checker, problems = doctest.OutputChecker(), []
    for stmt, example, result in zip(statements, examples[setup:], run["results"][setup:]):
        got = result["want"] if "exception" in result else result["got"]
        if not checker.check_output(example.want, got, 0):
            diff = checker.output_difference(example, got, doctest.REPORT_UDIFF)
            problems.append(f"{snippet.rel}:{stmt.line}: output differs from {rel}\n{diff}")
    return problems


def check_one(snippet: Snippet, device: str, server: ForkServer | None = None) -> Outcome:
    path = snippet.transcript(device)
    rel = path.relative_to(model.ROOT).as_posix()
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
    folder = model.TRANSCRIPTS / device
    if not folder.exists():
        return []
    names = {s.name for s in all_snippets() + all_generators()}
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


# Snippets per fork server at least, when run_many chooses how many to start in parallel.
SNIPPETS_PER_SERVER = 20


def parallel_servers(snippets: int, cores: int) -> int:
    """How many fork servers run `snippets` at once on `cores`: a second server pays torch's
    import again (about 1.5 CPU-s, 3 with the compiler stack) to save half of its snippets'
    time (about 50 ms each), worth it for a batch, not for a few (`whatcopy record a.py b.py`:
    one server, not one per core)."""
    return max(1, min(cores, -(-snippets // SNIPPETS_PER_SERVER)))


def run_many(
    action,
    snippets: list[Snippet],
    device: str,
    jobs: int | None = None,
    python: str | None = None,
    clean: bool = False,
    timing: Timing | None = None,
    compiler: bool = True,
) -> list:
    """`action(snippet, device, server)` for each snippet, in parallel, each on a fork server;
    what each returned.

    `python` and `clean` choose the interpreter that runs the snippets, `compiler` whether its
    servers preload torch's compiler stack (see ForkServer).
    """
    jobs = parallel_servers(len(snippets), jobs or os.cpu_count() or 1)
    if not snippets:
        return []
    local = threading.local()
    servers: list[ForkServer] = []
    lock = threading.Lock()

    def task(snippet: Snippet):
        mine = local.__dict__.setdefault("servers", {})  # a teacher's snippets', a generators'
        folder = generators_folder(snippet)
        if folder not in mine:
            mine[folder] = ForkServer(
                device, python=python, clean=clean, compiler=compiler, generators=folder
            )
            with lock:
                servers.append(mine[folder])
        return action(snippet, device, mine[folder])

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
