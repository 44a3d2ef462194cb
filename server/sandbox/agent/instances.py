"""One tritonserver per model, each its own process group with its own shared-memory regions (issue #28):
a model that crashes, corrupts its shared memory or aborts takes down only its own Triton. The agent starts
one when a model is loaded, stops it when the model is unloaded, fails, or leaves its limits, and never
starts it again by itself: the host decides (it marks the model failed with the reason recorded here).

Standard library only (runs inside the sandbox)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

try:
    from .logs import CappedLog, read_tail
    from .processes import INSTANCE_NAME, WAIT_TIMEOUT, kill_model, loaded_models, resident_bytes
except ImportError:  # run as the folder /sandbox/agent, where the siblings are top-level modules
    from logs import CappedLog, read_tail  # type: ignore[no-redef]
    from processes import INSTANCE_NAME, WAIT_TIMEOUT, kill_model, loaded_models, resident_bytes  # type: ignore[no-redef]

GIB = 1024**3
MAX_FAILURES_KEPT = 1000
PIPE_CHUNK = 1 << 16
# The stub launcher writes a stub's exit status here when the stub ends by itself (an unload kills the launcher
# first, so it writes nothing): the agent learns which model's code died, and how.
STUB_EXITS = Path("/tmp/dynabench-stub-exits")


@dataclass(frozen=True)
class InstanceLimits:
    memory_bytes: int = 0  # one model's processes (its Triton and its stubs); 0: only the sandbox's limit
    sandbox_memory_bytes: int = 0  # said in the message of a model the kernel killed
    log_bytes: int = 1 << 20
    logs_total_bytes: int = 64 << 20
    start_timeout_s: float = 60.0
    stop_timeout_s: float = 10.0
    watch_every_s: float = 0.25


@dataclass
class Instance:
    model: str
    port: int
    process: asyncio.subprocess.Process
    log: CappedLog
    stopping: bool = False
    tasks: list[asyncio.Task] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def exit_reason(code: int | None) -> str:
    """What a model's Triton ending by itself means, for the researcher."""
    if code is not None and code < 0:
        number = -code
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else f"signal {number}"
        if number == signal.SIGABRT:
            return f"its Triton process aborted ({name}): the model's code broke its shared memory or Triton itself"
        if number == signal.SIGKILL:
            return "its Triton process was killed (SIGKILL), most likely by the kernel at the sandbox's memory limit"
        return f"its Triton process crashed ({name})"
    return f"its Triton process exited with status {code}"


def stub_exit_reason(status: int, sandbox_memory_bytes: int) -> str | None:
    """What a stub's exit status (as the launcher's shell reports it) means; None for a clean exit."""
    if status == 0:
        return None
    if status == 128 + signal.SIGKILL:
        limit = f" ({sandbox_memory_bytes / GIB:g} GiB)" if sandbox_memory_bytes else ""
        return f"its code was killed by the kernel (SIGKILL), most likely at the sandbox's memory limit{limit}"
    if status == 128 + signal.SIGXCPU:
        return "its code used up its CPU time limit (SANDBOX_STUB_CPU_SECONDS) and was stopped"
    if status > 128 and status - 128 in signal.Signals._value2member_map_:
        return f"its code crashed ({signal.Signals(status - 128).name})"
    return f"its code exited with status {status}"


class Instances:
    def __init__(self, triton_argv: list[str], log_dir: Path, limits: InstanceLimits) -> None:
        self.triton_argv = triton_argv
        self.log_dir = log_dir
        self.limits = limits
        self.running: dict[str, Instance] = {}
        self.failures: OrderedDict[str, str] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        self._started = 0
        self._stops: set[asyncio.Future] = set()
        self._failure_signals: dict[str, asyncio.Event] = {}

    def port_of(self, model: str) -> int | None:
        instance = self.running.get(model)
        return instance.port if instance and not instance.stopping and instance.process.returncode is None else None

    def _lock(self, model: str) -> asyncio.Lock:
        return self._locks.setdefault(model, asyncio.Lock())

    async def ensure(self, model: str) -> Instance:
        """The model's Triton, started if it has none: a load the host asks for is a new admission."""
        async with self._lock(model):
            instance = self.running.get(model)
            if instance is not None and instance.process.returncode is None and not instance.stopping:
                return instance
            if instance is not None:  # dead or stopping: wholly gone (its processes match the name) before a new one
                await self.stop(model)
            self.failures.pop(model, None)
            return await self._start(model)

    async def _start(self, model: str) -> Instance:
        clear_stub_exits(model)  # reports of an earlier instance's stubs
        self._started += 1
        port = free_port()
        argv = [
            *self.triton_argv,
            f"--http-port={port}",
            # Each Triton's python-backend regions under their own names: no model's stub maps another's.
            f"--backend-config=python,shm-region-prefix-name=dynabench-{self._started}-",
        ]
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
        log = CappedLog(self.log_dir, model, self.limits.log_bytes, self.limits.logs_total_bytes)
        instance = Instance(model, port, process, log)
        self.running[model] = instance
        instance.tasks = [asyncio.ensure_future(self._pump(instance)), asyncio.ensure_future(self._watch(instance))]
        deadline = time.monotonic() + self.limits.start_timeout_s
        while not await _live(port):
            if process.returncode is not None or time.monotonic() > deadline:
                await self.stop(model)
                raise RuntimeError(f"the model's Triton did not start: {exit_reason(process.returncode)}")
            await asyncio.sleep(0.05)
        return instance

    async def _pump(self, instance: Instance) -> None:
        assert instance.process.stdout is not None
        while data := await instance.process.stdout.read(PIPE_CHUNK):
            try:
                await asyncio.to_thread(instance.log.write, data)
            except (OSError, ValueError):  # the disk refused, or the log closed (the model stopped): dropped, still read
                continue

    async def _watch(self, instance: Instance) -> None:
        code = await instance.process.wait()
        if not instance.stopping:
            self.fail(instance.model, exit_reason(code))

    def fail(self, model: str, reason: str) -> None:
        """Record why the model was stopped (the host reads it) and stop its Triton."""
        if model not in self.running or self.running[model].stopping:
            return
        print(f"sandbox agent: stopped {model}: {reason}", file=sys.stderr, flush=True)
        self.running[model].stopping = True  # the first reason is the one kept; no request goes to it now
        self.failures[model] = reason
        self.failures.move_to_end(model)
        if signal_ := self._failure_signals.pop(model, None):
            signal_.set()
        while len(self.failures) > MAX_FAILURES_KEPT:
            self.failures.popitem(last=False)
        task = asyncio.ensure_future(self.stop(model, graceful=False))
        self._stops.add(task)
        task.add_done_callback(self._stops.discard)

    async def wait_for_failure(self, model: str, timeout_s: float) -> str | None:
        """Why the model was stopped, as soon as it is (or None if it is not within ``timeout_s``)."""
        if model not in self.failures:
            signal_ = self._failure_signals.setdefault(model, asyncio.Event())
            try:
                await asyncio.wait_for(signal_.wait(), timeout_s)
            except WAIT_TIMEOUT:
                if self._failure_signals.get(model) is signal_:
                    del self._failure_signals[model]
        return self.failures.get(model)

    async def stop(self, model: str, graceful: bool = True) -> bool:
        """Stop the model's Triton and every process of its instances; whether it had one. Not graceful: at once (a
        model that failed or that the host killed; Triton would wait its exit timeout for the model to unload)."""
        instance = self.running.get(model)
        if instance is None:
            return False
        instance.stopping = True
        process = instance.process
        if process.returncode is None and graceful:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), self.limits.stop_timeout_s)
            except WAIT_TIMEOUT:
                pass
        _kill_group(process.pid)
        await asyncio.to_thread(kill_model, model)
        await process.wait()
        for task in instance.tasks:
            if task is not asyncio.current_task():
                await asyncio.wait([task], timeout=5)
        instance.log.close()
        if self.running.get(model) is instance:
            del self.running[model]
        return True

    async def stop_all(self) -> None:
        await asyncio.gather(*(self.stop(model) for model in list(self.running)))

    def tail(self, model: str, size: int) -> bytes:
        return read_tail(self.log_dir / f"{model}.log", size)

    def usage(self) -> dict[str, int]:
        """{model: resident bytes of its Triton and its stubs} for the running instances."""
        stubs = loaded_models()
        return {
            model: stubs.get(model, 0) + resident_bytes(instance.process.pid)
            for model, instance in self.running.items()
            if not instance.stopping
        }

    def breaches(self) -> list[tuple[str, str]]:
        """(model, why) for every model past the per-model memory limit or whose code's stub ended by itself.
        Reads /proc and the launcher's reports: run in a thread."""
        found = []
        limit = self.limits.memory_bytes
        if limit:
            for model, used in self.usage().items():
                if used > limit:
                    found.append(
                        (
                            model,
                            f"memory limit: its processes used {used / GIB:.1f} GiB, over the per-model limit of {limit / GIB:g} GiB",
                        )
                    )
        for model, status in read_stub_exits():
            reason = stub_exit_reason(status, self.limits.sandbox_memory_bytes)
            if reason:
                found.append((model, reason))
        return found

    async def check_limits(self) -> None:
        """One look at every model; those past a limit are stopped, with the reason kept."""
        for model, reason in await asyncio.to_thread(self.breaches):
            self.fail(model, reason)

    async def watch_limits(self) -> None:
        while True:
            await asyncio.sleep(self.limits.watch_every_s)
            await self.check_limits()


def read_stub_exits(folder: Path = STUB_EXITS) -> list[tuple[str, int]]:
    """(model, exit status) for every stub exit the launcher reported since the last look; the reports go."""
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        match = INSTANCE_NAME.fullmatch(entry.name)
        try:
            status = int(Path(entry.path).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            status = None
        Path(entry.path).unlink(missing_ok=True)
        if match and status is not None:
            found.append((match.group(1), status))
    return found


def clear_stub_exits(model: str, folder: Path = STUB_EXITS) -> None:
    for stale in folder.glob(f"{model}_*"):
        stale.unlink(missing_ok=True)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


async def _live(port: int) -> bool:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
    except (OSError, *WAIT_TIMEOUT):
        return False
    try:
        writer.write(b"GET /v2/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 5)
    except (OSError, *WAIT_TIMEOUT):
        return False
    finally:
        writer.close()
    parts = status_line.split()
    return len(parts) > 1 and parts[1] == b"200"
