"""Warm Jupyter kernels: each page's kernel is a real ipykernel, forked from a server that has
already imported torch, NumPy and ipykernel, instead of a new interpreter that imports them.
(Not torch's compiler stack, which the transcript check's fork server preloads,
whatcopy.core.runner.preload_compiler: three pages import it, on their first optimizer step or
forward-mode AD; most builds in the tests none. Preloaded here too, it made a one-snippet edit
no faster: the edited page's kernel then waited for the server's longer import instead; that
was measured before fast_kernels.start_early started the server ahead of Sphinx's reading.)

A new kernel costs about 2.5 s of CPU here (0.8 s ipykernel, 1.9 s ``import torch``) before
its first cell; a forked one costs a fraction of a second. The build starts one server
(``serving()``, used by whatcopy/sphinxext/fast_kernels.py) and points Jupyter at a kernel
spec named ``python3`` whose command is ``python -m whatcopy.execution.kernels launch -f <connection
file>``. That launcher is the process Jupyter manages: it hands the server its working folder,
environment, standard streams and connection file; the server forks; the child becomes the
kernel. The launcher then stands in for the kernel: signals sent to it (an interrupt, a
termination) are passed on, it exits when the kernel exits, and when it is killed (an immediate
shutdown, a timeout) the kernel notices at once, through a pipe whose only writer was the
launcher, and exits too.

Each kernel starts as a new interpreter would for the cells it runs: in the launcher's working
folder and environment, in a session of its own, with the generators a fresh interpreter seeds
randomly (torch's CPU generator, NumPy's, ``random``'s) reseeded, and with nothing imported
into its namespace (a cell still needs ``import torch``); ``sys.path``, ``sys.argv``, the
environment and ipykernel's settings are those of a kernel started the usual way (a test
compares the two). What differs: modules the server imported are already in ``sys.modules``, so
their import-time side effects do not repeat; and the seed of ``str`` hashing, which a new
interpreter picks at random, is the server's, shared by the kernels of one build.

Only the standard library is imported here, so that the launcher starts fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

SERVER_ENV = "WHATCOPY_KERNEL_SERVER"  # the server's socket, for the launcher
PRELOAD = ("torch", "numpy", "ipykernel.kernelapp")
# ipykernel reads two defaults (JPY_PARENT_PID, JPY_INTERRUPT_EVENT) from the environment when
# this module is imported: the server forgets it, keeping what it imports, and each kernel
# imports it again, in a few milliseconds, in its own environment.
REIMPORTED = "ipykernel.kernelapp"
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1)
_LENGTH = struct.Struct("!I")


class KernelServerError(RuntimeError):
    pass


def _recv_exactly(conn: socket.socket, size: int, data: bytes = b"") -> bytes:
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise KernelServerError("the launcher hung up mid-request")
        data += chunk
    return data


# ---------------------------------------------------------------------------------------------
# The server.


def _become_kernel(conn: socket.socket, request: dict, fds: list[int]) -> None:
    """In the forked child: take the launcher's place, then run ipykernel. Never returns."""
    code = 1
    try:
        for number in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()  # as Jupyter starts a kernel: a session of its own
        stdin, stdout, stderr, lifeline = fds
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(fd, target)
            os.close(fd)
        # `conn` stays open, unused: the launcher waits for it to close, when this process ends.
        # (Received descriptors are inheritable: a cell's subprocesses must not keep the pipe.)
        os.set_inheritable(lifeline, False)

        def exit_with_launcher() -> None:
            os.read(lifeline, 1)  # returns when the launcher, the pipe's only writer, is gone
            os._exit(1)

        threading.Thread(target=exit_with_launcher, daemon=True).start()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        from whatcopy.core.child import reseed

        reseed()
        # What `python -m ipykernel_launcher -f ...` runs, run the same way.
        sys.argv = ["ipykernel_launcher", *request["args"]]
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001  (reported on the kernel's stderr, and by its exit)
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _preload() -> None:
    """Import what every kernel imports, so that kernels forked afterwards start with it."""
    import importlib

    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    package, _, name = REIMPORTED.rpartition(".")
    if sys.modules.pop(REIMPORTED, None) is not None:
        delattr(sys.modules[package], name)


def _serve(path: str) -> int:
    """Listen on `path`; when the first launcher connects, import what kernels import; fork one
    kernel per connection; stop when standard input closes (the process that started the server
    has ended). A build that executes nothing (every page's outputs are in the cache) thus pays
    nothing for its server."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)  # launchers may connect, and wait, while the imports run
    preloaded = False
    while True:
        ready, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1024):
            # nothing to write or close: exit without tearing down torch's modules, which
            # took 0.9 s of every build that executed a page
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        if listener not in ready:
            continue
        if not preloaded:
            _preload()
            signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # kernels are reaped as they end
            preloaded = True
        conn, _ = listener.accept()
        try:
            head, fds, _, _ = socket.recv_fds(conn, 65536, 4)
            if len(fds) != 4:
                raise KernelServerError(f"expected 4 file descriptors, got {len(fds)}")
            (size,) = _LENGTH.unpack(_recv_exactly(conn, _LENGTH.size, head[: _LENGTH.size]))
            body = _recv_exactly(conn, size, head[_LENGTH.size :])
            request = json.loads(body)
        except (OSError, ValueError, KernelServerError) as exc:
            with contextlib.suppress(OSError):
                conn.sendall(f"error {exc}\n".encode())
            conn.close()
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            listener.close()
            _become_kernel(conn, request, fds)
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            conn.sendall(f"pid {pid}\n".encode())
        conn.close()


# ---------------------------------------------------------------------------------------------
# The launcher: what Jupyter starts as the kernel.


def _launch(args: list[str]) -> int:
    path = os.environ.get(SERVER_ENV)
    if not path:
        sys.exit(
            f"whatcopy.execution.kernels: {SERVER_ENV} is not set; this kernel spec works only inside a "
            "build that started a kernel server (whatcopy/sphinxext/fast_kernels.py)"
        )
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError as exc:
        sys.exit(f"whatcopy.execution.kernels: no kernel server at {path}: {exc}")
    lifeline, keep = os.pipe()  # `keep` is held until this process ends
    body = json.dumps(
        {
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "args": args,
        }
    ).encode()
    message = _LENGTH.pack(len(body)) + body
    sent = socket.send_fds(sock, [message], [0, 1, 2, lifeline])
    sock.sendall(message[sent:])  # (one sendmsg may take only part of a large environment)
    os.close(lifeline)
    answer = b""
    while not answer.endswith(b"\n"):
        chunk = sock.recv(256)
        if not chunk:
            sys.exit("whatcopy.execution.kernels: the kernel server closed the connection")
        answer += chunk
    word, _, value = answer.decode().strip().partition(" ")
    if word != "pid":
        sys.exit(f"whatcopy.execution.kernels: the kernel server refused: {value}")
    pid = int(value)

    def forward(number, frame):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, number)

    for number in FORWARDED:
        signal.signal(number, forward)
    while sock.recv(256):  # the kernel holds the other end: EOF when it has ended
        pass
    os.close(keep)
    return 0


# ---------------------------------------------------------------------------------------------
# What a build uses.


def kernel_spec() -> dict:
    """ipykernel's own spec for `python3`, with the launcher as its command, and a provisioner
    that connects the kernel through Unix sockets in the server's folder instead of TCP ports,
    which another process can take before a forked kernel binds them (whatcopy/execution/kernel_sockets.py)."""
    return {
        "argv": [
            sys.executable,
            "-m",
            "whatcopy.execution.kernels",
            "launch",
            "-f",
            "{connection_file}",
        ],
        "display_name": f"Python {sys.version_info[0]} (ipykernel)",
        "language": "python",
        "metadata": {
            "debugger": True,
            "kernel_provisioner": {"provisioner_name": "whatcopy-unix-sockets"},
        },
    }


def warm_up(folder: Path) -> None:
    """Ask the server in `folder` (serving()'s) to import what kernels import now, not when
    the first kernel is asked for: a connection that hands it nothing does."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as poke:
        poke.connect(str(folder / "socket"))


@contextlib.contextmanager
def serving() -> Iterator[Path]:
    """Start a kernel server; while inside, kernels named `python3` that Jupyter starts in this
    process, or in processes it starts or forks, are forked from it. Yields the server's folder.
    The environment variables it sets are restored on leaving."""
    folder = Path(tempfile.mkdtemp(prefix="whatcopy-kernels-"))
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps(kernel_spec(), indent=1), encoding="utf-8")
    path = folder / "socket"
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, whatcopy.execution.kernels as k; sys.exit(k.main())",
            "serve",
        ]
        + [str(path)],
        stdin=subprocess.PIPE,
        cwd=folder,
    )
    saved = {name: os.environ.get(name) for name in ("JUPYTER_PATH", SERVER_ENV)}
    # nbclient waits 60 s for a kernel to start, myst-nb gives no way to change it, and the
    # first kernel waits for the server's imports: on a busy machine, longer. The kernel's
    # start gets the servers' start deadline; a cell's limit is left as it is.
    from nbclient import NotebookClient

    # (traitlets keeps an immutable default in a class-wide table as well as on the trait)
    defaults = getattr(NotebookClient, "_static_immutable_initial_values", {})
    saved_startup = NotebookClient.startup_timeout.default_value
    try:
        # The socket exists within milliseconds of the interpreter's start (imports come
        # after), which on a busy machine can take seconds: the same deadline as the snippet
        # servers' start (a server that fails exits, which is seen at once).
        from whatcopy.core.runner import start_timeout_s

        NotebookClient.startup_timeout.default_value = int(start_timeout_s())
        if "startup_timeout" in defaults:
            defaults["startup_timeout"] = int(start_timeout_s())
        deadline = time.monotonic() + start_timeout_s()
        while not path.exists() and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if not path.exists():
            raise KernelServerError(f"the kernel server did not start (exit {server.poll()})")
        os.environ["JUPYTER_PATH"] = os.pathsep.join(
            [str(folder), *filter(None, [saved["JUPYTER_PATH"]])]
        )
        os.environ[SERVER_ENV] = str(path)
        yield folder
    finally:
        NotebookClient.startup_timeout.default_value = saved_startup
        if "startup_timeout" in defaults:
            defaults["startup_timeout"] = saved_startup
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stdin.close()  # the server's signal to stop
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"] and len(argv) == 2:
        return _serve(argv[1])
    if argv[:1] == ["launch"]:
        return _launch(argv[1:])
    sys.exit("usage: python -m whatcopy.execution.kernels launch -f CONNECTION_FILE | serve SOCKET")


if __name__ == "__main__":
    sys.exit(main())
