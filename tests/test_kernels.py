"""Warm kernels (whatcopy/execution/kernels.py): a kernel forked from the server starts as a new ipykernel
would, its generators are its own, and it ends when Jupyter stops, interrupts or kills it."""

from __future__ import annotations

import json
import os
import time

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

from whatcopy.execution import kernels

pytestmark = pytest.mark.slow  # starts Jupyter kernels and waits out timeouts

PROBE = """\
import json, os, sys
print(json.dumps({
    "cwd": os.getcwd(),
    "path": sys.path,
    "argv": [os.path.basename(sys.argv[0])] + sys.argv[1:2],
    "name": __name__,
    "torch_in_namespace": "torch" in globals(),
    "own_session": os.getsid(0) == os.getpid(),
    "jupyter_parent": os.environ.get("JPY_PARENT_PID"),
    # read by ipykernel from the environment when imported: the kernel's, not the server's
    "parent_handle": str(__import__("ipykernel.kernelapp").kernelapp.IPKernelApp.instance().parent_handle),
    "marker": os.environ.get("WHATCOPY_PROBE"),
}))
import torch
print(json.dumps({"pid": os.getpid(), "rand": torch.rand(3).tolist()}))
"""


def run(cells: list[str], folder, **options) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(
        notebook,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
        shutdown_kernel="immediate",
        **options,
    ).execute()
    return notebook


def printed(notebook) -> list[dict]:
    text = "".join(o.get("text", "") for c in notebook.cells for o in c.outputs)
    return [json.loads(line) for line in text.splitlines()]


def hang_after(first: str, hang: str, seconds: float):
    """nbclient's per-cell limit (timeout_func): `seconds` for the `hang` cell, and no tight
    limit for the cell before it, which the test needs to have run however busy the machine is
    (a kernel that starts slowly is not what these tests time)."""
    return lambda cell: seconds if cell.source == hang else 600


def gone(pid: int, within: float = 120.0) -> bool:
    """Whether the process ends within `within` seconds (it returns as soon as it has: the bound
    is for a machine too busy to end a process in a few seconds, not a measure)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_forked_kernel_starts_as_a_new_kernel_would(tmp_path, monkeypatch):
    """The same probe in a kernel Jupyter starts the usual way (the reference) and in two forked
    ones: same folder, import path, argv, namespace and environment; different numbers."""
    monkeypatch.setenv("WHATCOPY_PROBE", "seen")
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.delenv(kernels.SERVER_ENV, raising=False)
    reference, _ = printed(run([PROBE], tmp_path))
    with kernels.serving():
        assert os.environ[kernels.SERVER_ENV]
        (first, first_numbers), (second, second_numbers) = (
            printed(run([PROBE], tmp_path)) for _ in range(2)
        )
    assert kernels.SERVER_ENV not in os.environ, "serving() left its variable behind"
    assert reference["marker"] == "seen" and reference["torch_in_namespace"] is False
    assert first == reference, (first, reference)
    assert second == reference, (second, reference)
    assert first_numbers["pid"] != second_numbers["pid"]
    assert first_numbers["rand"] != second_numbers["rand"], "two kernels drew the same numbers"


SOCKETS = """\
import json
from ipykernel.connect import get_connection_info
info = get_connection_info(unpack=True)
print(json.dumps({"transport": info["transport"], "ip": info["ip"]}))
"""


def test_a_forked_kernel_listens_on_unix_sockets_in_the_servers_folder(tmp_path):
    """No TCP ports, which another process could take between Jupyter's choice of them and a
    forked kernel's start (a CI build's kernel failed to bind its control port): Unix sockets named
    after the kernel, in the server's folder; the provisioner is the one the spec names."""
    from importlib.metadata import entry_points

    from whatcopy.execution.kernel_sockets import UnixSocketProvisioner

    name = kernels.kernel_spec()["metadata"]["kernel_provisioner"]["provisioner_name"]
    (entry,) = entry_points(group="jupyter_client.kernel_provisioners", name=name)
    assert entry.load() is UnixSocketProvisioner, entry
    with kernels.serving() as folder:
        seen = [printed(run([SOCKETS], tmp_path))[0] for _ in range(2)]
        assert not list(folder.glob("k-*")), "a kernel's sockets outlived it"
    for info in seen:
        assert info["transport"] == "ipc", info
        assert os.path.dirname(info["ip"]) == str(folder), (info, folder)
    assert seen[0]["ip"] != seen[1]["ip"], seen


def test_a_socket_path_too_long_for_unix_is_refused_with_its_cause():
    """A temporary folder deep enough to overflow a Unix socket's path: the provisioner says so
    and names the fix, instead of leaving a kernel to die at its bind."""
    import asyncio

    from jupyter_client.kernelspec import KernelSpec

    from whatcopy.execution.kernel_sockets import PATH_LIMIT, UnixSocketProvisioner

    deep = "/tmp/" + "d" * PATH_LIMIT + "/whatcopy-kernels-x/kernels/python3"
    provisioner = UnixSocketProvisioner(
        kernel_id="0123456789ab-cdef", kernel_spec=KernelSpec(resource_dir=deep)
    )
    with pytest.raises(RuntimeError, match="TMPDIR") as raised:
        asyncio.run(provisioner.pre_launch())
    assert f"{PATH_LIMIT} bytes" in str(raised.value)


def test_a_kernel_that_runs_too_long_is_killed(tmp_path, warm_kernels):
    """A cell past its timeout: Jupyter kills the launcher, and the forked kernel ends too."""
    first = "import os, time\nprint(os.getpid(), flush=True)"
    hang = "while True:\n    time.sleep(0.1)"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (first, hang)])
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout_func=hang_after(first, hang, 2),
        resources={"metadata": {"path": str(tmp_path)}},
        shutdown_kernel="immediate",
    )
    with pytest.raises(CellTimeoutError):
        client.execute()
    pid = int(notebook.cells[0].outputs[0]["text"])
    assert gone(pid), f"kernel {pid} outlived its launcher"


def test_an_interrupt_reaches_the_kernel(tmp_path, warm_kernels):
    """Jupyter interrupts a kernel by signalling the launcher; the kernel gets KeyboardInterrupt."""
    first = "import time"
    hang = "while True:\n    time.sleep(0.1)"
    with pytest.raises(CellExecutionError, match="KeyboardInterrupt"):
        run(
            [first, hang],
            tmp_path,
            timeout_func=hang_after(first, hang, 2),
            interrupt_on_timeout=True,
        )


def test_the_launcher_needs_a_server(tmp_path, monkeypatch):
    """Outside `serving()` the launcher says what is missing instead of starting something else."""
    import subprocess
    import sys

    monkeypatch.delenv(kernels.SERVER_ENV, raising=False)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "whatcopy.execution.kernels",
            "launch",
            "-f",
            str(tmp_path / "c.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and kernels.SERVER_ENV in result.stderr, result.stderr
