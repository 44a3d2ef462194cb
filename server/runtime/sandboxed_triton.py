"""The submissions Triton, inside the OS sandbox (server/sandbox/), as our supervised child.

The host reaches it only through two unix sockets in a folder the sandbox shares with us: the
relay to Triton's HTTP API and the agent's memory statistics. Nothing listens on a host port.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import signal
import socket
import tempfile
import urllib.parse
from pathlib import Path

from server.runtime._process import ChildService
from server.runtime.errors import ServiceStartError
from server.runtime.triton import prepare_triton_runtime
from server.sandbox.bwrap import RUN_DIR, SANDBOX_UID, SandboxLimits, SandboxUnavailable, check_available, command
from server.sandbox.cgroups import SandboxCgroup, remove_stale, rlimits

_SOCKET_PATH_MAX = 100


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float = 5.0) -> None:
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.unix_path)


def unix_get(path: str, url: str, headers: dict[str, str] | None = None, timeout: float = 5.0) -> tuple[int, bytes]:
    connection = UnixHTTPConnection(path, timeout)
    try:
        connection.request("GET", url, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class SandboxedTriton(ChildService):
    """tritonserver behind the sandbox agent; ``url`` is ``unix:<socket>`` for server.core.triton_clients."""

    service_name = "Triton (submissions sandbox)"
    stop_steps = ((signal.SIGTERM, 20.0),)

    def __init__(
        self,
        runtime_dir: Path,
        state_dir: Path,
        control_key: str,
        *,
        log_path: Path | None = None,
        limits: SandboxLimits | None = None,
        start_timeout: float = 60.0,
    ) -> None:
        self.runtime_dir = Path(runtime_dir).absolute()
        self.state_dir = Path(state_dir).absolute()
        super().__init__(Path(log_path) if log_path else self.state_dir / "triton-submissions.log")
        self.control_key = control_key
        self.limits = limits or SandboxLimits.from_env()
        self.start_timeout = start_timeout
        self.run_dir = self._pick_run_dir()
        self.cgroup: SandboxCgroup | None = None

    def _pick_run_dir(self) -> Path:
        run_dir = self.state_dir / "run"
        if len(str(run_dir / "triton.sock")) > _SOCKET_PATH_MAX:
            digest = hashlib.sha256(str(self.state_dir).encode()).hexdigest()[:12]
            run_dir = Path(tempfile.gettempdir()) / f"dynabench-sandbox-{digest}"
        return run_dir

    @property
    def socket_path(self) -> str:
        return str(self.run_dir / "triton.sock")

    @property
    def stats_path(self) -> str:
        return str(self.run_dir / "stats.sock")

    @property
    def url(self) -> str:
        return f"unix:{self.socket_path}"

    @property
    def stats_url(self) -> str:
        return f"unix:{self.stats_path}"

    @property
    def isolation(self) -> str:
        limits = self.cgroup.describe() if self.cgroup else "no cgroup (process-count rlimit only)"
        user = "nobody" if os.geteuid() == 0 else "the invoking user (not root)"
        return f"bubblewrap; runs as {user}; limits: {limits}"

    def start(self) -> None:
        if self.running:
            return
        try:
            check_available()
        except SandboxUnavailable as exc:
            raise ServiceStartError(self.service_name, f"the sandbox cannot start: {exc}") from exc
        prepare_triton_runtime(self.runtime_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for stale in (self.socket_path, self.stats_path):
            Path(stale).unlink(missing_ok=True)
        if os.geteuid() == 0:
            os.chown(self.run_dir, SANDBOX_UID, SANDBOX_UID)
            _make_readable_by_others(self.runtime_dir)
        self.run_dir.chmod(0o700)
        argv = command(
            self.runtime_dir,
            self.run_dir,
            listen=f"unix:{RUN_DIR}/triton.sock",
            stats_listen=f"unix:{RUN_DIR}/stats.sock",
            limits=self.limits,
            triton_args=[
                "--model-repository=/tmp/models",
                "--model-control-mode=explicit",
                "--exit-timeout-secs=3",
                f"--backend-config=python,stub-timeout-seconds={self.limits.stub_timeout_s}",
                "--allow-metrics=false",
            ],
        )
        if self.cgroup is None and os.geteuid() == 0:
            remove_stale()
            self.cgroup = SandboxCgroup.create(f"dynabench-sandbox-{os.getpid()}-{id(self):x}", self.limits)
        cgroup, limits = self.cgroup, self.limits

        def confine() -> None:
            if cgroup is not None:
                cgroup.enter()
            else:
                rlimits(limits)

        self._launch(
            argv,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            cwd=self.state_dir,
            death_signal=signal.SIGTERM,
            stdin_data=(self.control_key + "\n").encode(),
            before_exec=confine,
        )
        self._wait_until(self.live, self.start_timeout, "the sandboxed Triton to report live")

    def live(self) -> bool:
        try:
            return unix_get(self.socket_path, "/v2/health/live", timeout=1.0)[0] == 200
        except OSError:
            return False

    def model_ready(self, name: str) -> bool:
        try:
            return unix_get(self.socket_path, f"/v2/models/{urllib.parse.quote(name)}/ready", timeout=2.0)[0] == 200
        except OSError:
            return False

    def peak_memory_bytes(self, model: str) -> int:
        status, body = unix_get(self.stats_path, f"/memory/{urllib.parse.quote(model)}")
        return int(json.loads(body)["peak_bytes"]) if status == 200 else 0

    def stop(self, timeout: float = 20.0) -> None:
        super().stop(timeout)
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _make_readable_by_others(runtime_dir: Path) -> None:
    """The sandbox runs as nobody: Triton's files (bound in by bwrap, which runs as root) must be readable."""
    for root, dirs, files in os.walk(runtime_dir):
        for name in dirs:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o005)
        for name in files:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o004)
