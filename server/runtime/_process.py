"""Child-process plumbing shared by the local services and the supervisor.

Every child runs in its own session (so a terminal Ctrl-C reaches only the supervisor) and
gets a parent-death signal (so a SIGKILLed parent leaves nothing behind).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from server.runtime.errors import ServiceStartError

_PR_SET_PDEATHSIG = 1
# Loaded in the parent: the pre-exec hook must not import or dlopen anything after fork.
_libc = ctypes.CDLL(None, use_errno=True)

_spawner: ThreadPoolExecutor | None = None
_spawner_lock = threading.Lock()

TAIL_LINES = 20


@dataclass(frozen=True)
class RunAs:
    """A system user a child runs as (used to run PostgreSQL when we are root)."""

    name: str
    uid: int
    gid: int
    home: str


def _preexec(death_signal: int, parent_pid: int, before_exec: Callable[[], None] | None = None) -> Callable[[], None]:
    def hook() -> None:
        # Runs after setuid (CPython changes credentials before calling preexec_fn), which
        # matters because a credential change clears the parent-death signal.
        _libc.prctl(_PR_SET_PDEATHSIG, death_signal, 0, 0, 0)
        if os.getppid() != parent_pid:  # parent already died between fork and prctl
            os.kill(os.getpid(), death_signal)
        if before_exec is not None:
            before_exec()

    return hook


def _popen(argv: Sequence[str], **kwargs: object) -> subprocess.Popen[bytes]:
    """Fork from a thread that lives as long as the process.

    PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, so a child started
    from a short-lived worker thread (anyio, asyncio.to_thread) would be killed when that
    thread is retired. Forks therefore happen on the main thread or on one long-lived thread.
    """
    if threading.current_thread() is threading.main_thread():
        return subprocess.Popen(argv, **kwargs)  # type: ignore[call-overload]
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="runtime-spawner")
    return _spawner.submit(lambda: subprocess.Popen(argv, **kwargs)).result()  # type: ignore[call-overload]


def spawn_child(
    argv: Sequence[str],
    *,
    log_path: Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    user: RunAs | None = None,
    death_signal: int = signal.SIGTERM,
    stdin_data: bytes | None = None,
    before_exec: Callable[[], None] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in its own session with a parent-death signal; output appended to ``log_path``.

    ``stdin_data`` (a few bytes, e.g. a key that must not appear in argv or the environment) is the
    child's whole stdin; ``before_exec`` runs in the child just before exec (e.g. entering a cgroup).
    """
    log_file = open(log_path, "ab") if log_path is not None else None  # noqa: SIM115
    stdin: int = subprocess.DEVNULL
    if stdin_data is not None:
        stdin, write_end = os.pipe()
        os.write(write_end, stdin_data)  # fits in the pipe buffer: no reader needed yet
        os.close(write_end)
    try:
        kwargs: dict[str, object] = {
            "stdin": stdin,
            "stdout": log_file,
            "stderr": subprocess.STDOUT if log_file is not None else None,
            "env": dict(env) if env is not None else None,
            "cwd": str(cwd) if cwd is not None else None,
            "start_new_session": True,
            "close_fds": True,
            "preexec_fn": _preexec(int(death_signal), os.getpid(), before_exec),
        }
        if user is not None:
            kwargs.update(user=user.uid, group=user.gid, extra_groups=[])
        return _popen([str(a) for a in argv], **kwargs)
    finally:
        if log_file is not None:
            log_file.close()
        if stdin_data is not None:
            os.close(stdin)


def exited(proc: subprocess.Popen[bytes]) -> bool:
    """True once the child has exited, without reaping it (its pid keeps its group id reserved)."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped elsewhere
        proc.poll()
        return True


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop_child(
    proc: subprocess.Popen[bytes],
    steps: Sequence[tuple[int, float]] = ((signal.SIGTERM, 10.0),),
    kill_timeout: float = 10.0,
) -> int:
    """Signal the child per ``steps`` (signal, seconds to wait); SIGKILL its whole group last.

    Idempotent. Returns the exit code (negative signal number if killed).
    """
    for sig, timeout in steps:
        if exited(proc):
            break
        try:
            os.kill(proc.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + timeout
        while not exited(proc) and time.monotonic() < deadline:
            time.sleep(0.02)
    if not exited(proc):
        _signal_group(proc.pid, signal.SIGKILL)
    # The leader is exited but unreaped here, so its pgid cannot be reused: clear stragglers
    # (e.g. Triton python-backend stubs) before reaping.
    _signal_group(proc.pid, signal.SIGKILL)
    try:
        return proc.wait(timeout=kill_timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def log_tail(path: Path | None, start: int = 0, lines: int = TAIL_LINES) -> str:
    """Last ``lines`` lines of ``path`` written after byte offset ``start``."""
    if path is None or not path.exists():
        return ""
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(start, size - 64 * 1024) if size > start else size)
        data = fh.read()
    return "\n".join(data.decode("utf-8", errors="replace").splitlines()[-lines:])


def file_size(path: Path | None) -> int:
    """Size of ``path`` in bytes, 0 if missing."""
    try:
        return path.stat().st_size if path is not None else 0
    except FileNotFoundError:
        return 0


class ChildService:
    """Base for a service that runs as one supervised child process."""

    service_name = "service"
    stop_steps: Sequence[tuple[int, float]] = ((signal.SIGTERM, 10.0),)

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_offset = 0

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running child, if started."""
        return self._proc

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and not exited(self._proc)

    def poll(self) -> int | None:
        """Exit code if the child was started and has died, else None."""
        if self._proc is None or not exited(self._proc):
            return None
        return self._proc.poll()

    def _launch(self, argv: Sequence[str], **kwargs: object) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_offset = file_size(self.log_path)
        self._proc = spawn_child(argv, log_path=self.log_path, **kwargs)  # type: ignore[arg-type]

    def tail(self, lines: int = TAIL_LINES) -> str:
        """Last log lines of the current run."""
        return log_tail(self.log_path, self._log_offset, lines)

    def _fail(self, reason: str) -> ServiceStartError:
        """Stop the child and build the error to raise (log tail read after it stopped)."""
        self._terminate(list(self.stop_steps)[:1] or [(signal.SIGTERM, 5.0)])
        return ServiceStartError(self.service_name, reason, self.log_path, self.tail())

    def _wait_until(self, ready: Callable[[], bool], timeout: float, what: str, stop_on_failure: bool = True) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self._proc is None or exited(self._proc):
                code = self._proc.poll() if self._proc is not None else None
                raise self._fail(f"exited with code {code} while waiting for {what}")
            if ready():
                return
            if time.monotonic() > deadline:
                reason = f"{what} did not happen within {timeout:g} s"
                if stop_on_failure:
                    raise self._fail(reason)
                raise ServiceStartError(self.service_name, reason, self.log_path, self.tail())
            time.sleep(0.05)

    def _terminate(self, steps: Sequence[tuple[int, float]]) -> int | None:
        if self._proc is None:
            return None
        return stop_child(self._proc, steps)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the child (first stop signal, then escalation); idempotent."""
        steps = [(sig, timeout if i == 0 else t) for i, (sig, t) in enumerate(self.stop_steps)]
        self._terminate(steps)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
