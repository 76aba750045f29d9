"""The build's kernels talk to Jupyter over Unix sockets in the kernel server's folder, not over
TCP ports on localhost.

Why: Jupyter picks a TCP kernel's five ports by binding each to port 0 and closing it again; the
kernel binds them when it has started. A forked kernel (whatcopy/execution/kernels.py) starts only once
the server has imported torch, seconds later on a busy machine, and in that gap any other
process may take one of those ports: a second language's build, one of Sphinx's parallel
readers, or any TCP connection, whose local port comes from the same range. The kernel then
cannot bind and dies, and the page with it (a clean-clone CI run failed so once, in
ipykernel's ``_bind_socket`` for the control port). jupyter_client's port cache guards only the
ports one process hands out. A Unix socket's name is a path that nobody else picks: each kernel's are named after its
own kernel id.

How: the kernel spec that ``kernels.serving()`` writes names this provisioner (registered in
pyproject.toml as the ``jupyter_client.kernel_provisioners`` entry point
``whatcopy-unix-sockets``). It is jupyter_client's local provisioner with ``transport = "ipc"``
and the connection file and socket paths set before the connection file is written; ipykernel
binds what the file says and the client connects to the same paths. They are removed with the
kernel (jupyter_client's clean-up) and with the server's folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_client.provisioning import LocalProvisioner

# A Unix socket's path holds at most 107 bytes (sun_path, with its final NUL, on Linux).
PATH_LIMIT = 107


class UnixSocketProvisioner(LocalProvisioner):
    async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
        manager = self.parent
        # the kernel server's folder: serving() writes the spec to <folder>/kernels/python3
        folder = Path(self.kernel_spec.resource_dir).parents[1]
        # The folder is a short temporary one, and the name the first 12 characters of the
        # kernel's id (a random UUID); ipykernel binds <stem>-ipc-1 to <stem>-ipc-5.
        stem = folder / f"k-{self.kernel_id[:12]}"
        longest = f"{stem}-ipc-5"
        if len(longest.encode()) > PATH_LIMIT:
            # (the kernel would only die binding it, and the page say no more than that)
            raise RuntimeError(
                f"whatcopy.execution.kernel_sockets: the kernel's socket {longest} is longer than the "
                f"{PATH_LIMIT} bytes a Unix socket's path may have; the kernel server's folder "
                "is made in the temporary folder: set TMPDIR to a shorter one"
            )
        manager.transport = "ipc"
        manager.connection_file = f"{stem}.json"
        manager.ip = f"{stem}-ipc"  # the sockets are <ip>-1 to <ip>-5
        return await super().pre_launch(**kwargs)
