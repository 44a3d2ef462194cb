"""Start local services and plain subprocesses in order; stop them in reverse order."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from server.runtime._process import exited, spawn_child, stop_child

log = logging.getLogger(__name__)


@runtime_checkable
class Service(Protocol):
    """What ServiceGroup.add accepts (LocalPostgres, LocalRedis, LocalTriton...)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


S = TypeVar("S", bound=Service)


@dataclass
class _Entry:
    name: str
    service: Any = None
    proc: subprocess.Popen[bytes] | None = None
    stop_signal: int = signal.SIGTERM
    stop_timeout: float = 10.0
    stopped: bool = False

    def exit_code(self) -> int | None:
        if self.proc is not None:
            return self.proc.poll() if exited(self.proc) else None
        poll = getattr(self.service, "poll", None)
        return poll() if callable(poll) else None


class ServiceGroup:
    """Ordered set of children. Use as a context manager so everything stops on exit."""

    def __init__(self, stop_timeout: float = 10.0) -> None:
        self.stop_timeout = stop_timeout
        self._entries: list[_Entry] = []
        self._lock = threading.RLock()

    def _register(self, entry: _Entry) -> None:
        with self._lock:
            if any(e.name == entry.name for e in self._entries):
                raise ValueError(f"a child named {entry.name!r} is already in this group")
            self._entries.append(entry)

    def add(self, name: str, service: S, start: bool = True) -> S:
        """Register ``service`` (and start it now unless start=False); returns it."""
        self._register(_Entry(name, service=service))
        if start:
            service.start()
        return service

    def spawn(
        self,
        name: str,
        argv: Sequence[str],
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
        *,
        cwd: Path | None = None,
        stop_signal: int = signal.SIGTERM,
        stop_timeout: float | None = None,
    ) -> subprocess.Popen[bytes]:
        """Start a plain subprocess (uvicorn, arq worker) in its own session.

        ``env`` entries are layered over os.environ. Output goes to ``log_path`` (appended) or,
        if None, to this process's stdout/stderr.
        """
        entry = _Entry(name, stop_signal=stop_signal, stop_timeout=stop_timeout or self.stop_timeout)
        self._register(entry)
        if log_path is not None:
            Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        try:
            entry.proc = spawn_child(argv, log_path=log_path, env={**os.environ, **(env or {})}, cwd=cwd)
        except BaseException:
            with self._lock:
                self._entries.remove(entry)
            raise
        return entry.proc

    def get(self, name: str) -> Any:
        """The service object or Popen registered under ``name``."""
        for entry in self._entries:
            if entry.name == name:
                return entry.proc if entry.proc is not None else entry.service
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self._entries]

    def first_exited(self) -> tuple[str, int] | None:
        """Name and exit code of the first child (in start order) that died without being stopped."""
        with self._lock:
            entries = list(self._entries)
        for entry in entries:
            if entry.stopped:
                continue
            code = entry.exit_code()
            if code is not None:
                return entry.name, code
        return None

    def stop_all(self) -> None:
        """Stop every child in reverse start order (SIGTERM, wait, SIGKILL); idempotent."""
        with self._lock:
            entries = list(reversed(self._entries))
        interrupted: BaseException | None = None
        for entry in entries:
            if entry.stopped:
                continue
            try:
                if entry.proc is not None:
                    stop_child(entry.proc, [(entry.stop_signal, entry.stop_timeout)])
                else:
                    entry.service.stop()
            except Exception:  # keep going: the remaining children must still be stopped
                log.exception("failed to stop %s", entry.name)
            except BaseException as exc:  # noqa: BLE001 — a second Ctrl-C: stop the rest first, re-raise after
                interrupted = interrupted or exc
                continue
            entry.stopped = True
        if interrupted is not None:
            raise interrupted

    def wait(self, poll_interval: float = 0.2) -> tuple[str, int] | None:
        """Block until a child dies (returns name, code) or SIGINT/SIGTERM arrives (returns None).

        Signal handlers are only installed when called from the main thread.
        """
        interrupted = threading.Event()
        previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, lambda *_: interrupted.set())
        try:
            while not interrupted.is_set():
                died = self.first_exited()
                if died is not None:
                    return died
                interrupted.wait(poll_interval)
            return None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_all()
