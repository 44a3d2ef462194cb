"""Running an uploaded classifier's own ``train.py`` in a one-shot sandbox (host side; issue #35, point 4).

The worker starts it like the submissions sandbox (server/sandbox/bwrap.py), with the same system views, and
less: read-only ``/sandbox/model`` (the current version's model directory, ``1/train.py`` among its files), read-only
``/sandbox/data`` (``train.jsonl`` and ``task.json``), a private ``/tmp``, and ``/sandbox/output``, a tmpfs of a fixed
size where ``train.py`` writes the new version's model directory (``/sandbox/output/<the model's name>``; both
folders are its arguments). No network at all, its own PID, IPC and UTS namespaces, ``nobody`` when the worker runs
as root (every capability dropped, no_new_privs), a cgroup's memory, process and CPU limits (required: without one
it does not start), RLIMIT_CPU, sized memory-backed folders and a wall-clock limit. When it
ends well, the new directory leaves as a tar stream on stdout, written (up to a cap) into the caller's staging file,
which the caller checks exactly like an upload. ``train.py``'s own output goes to stderr, of which the tail is kept
for the run's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from server.sandbox.bwrap import (
    SANDBOX_UID,
    _Args,
    _prlimit,
    _system_views,
    bwrap_binary,
    check_available,
    isolation_flags,
    python_roots,
)
from server.sandbox.cgroups import SandboxCgroup

TRAIN_SCRIPT = "train.py"  # in the model's newest version folder, beside model.py
LOG_TAIL_BYTES = 16_384
TMP_BYTES = 1 << 30  # the private /tmp
SHM_BYTES = 256 << 20  # /dev/shm
# Inside the sandbox: train.py's stdout joins its stderr, so that stdout carries nothing but the tar stream.
RUNNER = (
    'mkdir "/sandbox/output/$2" && "$0" -I "/sandbox/model/$1" /sandbox/data "/sandbox/output/$2" >&2 && '
    'exec tar -C /sandbox/output --owner=0 --group=0 --numeric-owner -cf - "$2"'
)


@dataclass(frozen=True)
class TrainingLimits:
    wall_seconds: float = 3600.0
    memory_bytes: int = 4 * 1024**3  # the cgroup's (the output tmpfs counts in it)
    cpu_cores: float = 1.0
    output_bytes: int = 512 * 1024**2  # the output tmpfs's size, and the most of the tar stream read
    max_processes: int = 256  # processes and threads

    @property
    def cpu_seconds(self) -> int:
        """RLIMIT_CPU besides the cgroup's CPU quota: the whole wall time on every allowed core."""
        return max(1, int(self.wall_seconds * max(1.0, self.cpu_cores)))


@dataclass
class TrainingOutcome:
    ok: bool  # and the tar stream of the new model directory is in the output file
    log: str  # the tail of train.py's output
    reason: str  # why it did not end well ("" when ok)
    limited_by: str  # the cgroup that limited memory, CPU and processes


def check_training_available() -> None:
    """bwrap.check_available with this sandbox's own flags (its namespaces, a sized tmpfs): a bwrap that cannot (one older
    than 0.8 knows no --size) is named as the worker's problem, not blamed on the owner's recipe."""
    check_available([*isolation_flags(), "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"])


def command(model_dir: Path, script: str, data_dir: Path, limits: TrainingLimits) -> list[str]:
    """bwrap, then (as root) setpriv down to nobody, then prlimit, then sh running `script` (a path in the model
    directory) and tar."""
    args = _Args()
    args.argv += isolation_flags()
    # Sized, besides the cgroup's memory limit (which counts what memory-backed folders hold).
    args.argv += ["--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    _system_views(args)
    for root in python_roots():
        args.add("--ro-bind", root, str(root))
    args.add("--ro-bind", model_dir, "/sandbox/model")
    args.add("--ro-bind", data_dir, "/sandbox/data")
    args.parents("/sandbox/output")
    args.argv += ["--perms", "0777", "--size", str(limits.output_bytes), "--tmpfs", "/sandbox/output"]
    args.parents("/proc")
    args.argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(SHM_BYTES),
        "--tmpfs",
        "/dev/shm",
        "--chdir",
        "/sandbox/output",
    ]
    threads = str(max(1, int(limits.cpu_cores + 0.999)))
    for name, value in {
        "PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        **dict.fromkeys(("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"), threads),
    }.items():
        args.argv += ["--setenv", name, value]
    drop: list[str] = []
    if os.geteuid() == 0:
        import shutil

        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise RuntimeError("setpriv (util-linux) is needed to drop to an unprivileged user")
        args.add("--ro-bind", setpriv, "/sandbox/bin/setpriv")
        drop = ["/sandbox/bin/setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups"]
        drop += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    limit = [_prlimit(), f"--cpu={limits.cpu_seconds}", "--core=0"]
    if os.geteuid() != 0:  # counted in its own user namespace; as root the cgroup's pids.max limits them
        limit.append(f"--nproc={limits.max_processes}")
    python = str(Path(sys.prefix) / "bin" / "python")
    # The new directory keeps the model's name: Triton wants it equal to config.pbtxt's.
    return [str(bwrap_binary()), *args.argv, "--", *drop, *limit, "/bin/sh", "-c", RUNNER, python, script, model_dir.name]


async def run_train_script(
    model_dir: Path,
    script: str,
    data_dir: Path,
    output_path: Path,
    limits: TrainingLimits,
    stop: threading.Event | None = None,
    name: str = "train",
) -> TrainingOutcome:
    """Run ``model_dir/script`` (e.g. ``1/train.py``) sandboxed, its output (a tar stream) written to ``output_path``;
    stopped at once when ``stop`` is set, after ``limits.wall_seconds``, or when its output passes
    ``limits.output_bytes``."""

    from server.sandbox.bwrap import SandboxLimits, SandboxUnavailable

    cgroup = SandboxCgroup.create(
        f"dynabench-sandbox-{os.getpid()}-{name}",
        SandboxLimits(memory_bytes=limits.memory_bytes, max_processes=limits.max_processes, cpu_cores=limits.cpu_cores),
    )
    if cgroup is None:
        # Per-process rlimits do not bound a script that forks, or mounts memory-backed folders in a user namespace of
        # its own: a hostile recipe would run for up to 40 minutes with nothing limiting its memory in all.
        raise SandboxUnavailable(
            "no cgroup could be made for its memory, CPU and process limits (the worker must be able to create one "
            "under /sys/fs/cgroup: run it as root, or give it a delegated cgroup)"
        )
    limited_by = cgroup.describe()
    try:
        process = await asyncio.create_subprocess_exec(
            *command(model_dir, script, data_dir, limits),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            preexec_fn=cgroup.enter,
        )
    except BaseException:
        await asyncio.to_thread(cgroup.remove)
        raise
    assert process.stdout is not None and process.stderr is not None
    log = bytearray()
    reason = ""

    async def read_log() -> None:
        while chunk := await process.stderr.read(65536):
            log.extend(chunk)
            del log[: max(0, len(log) - LOG_TAIL_BYTES)]

    async def read_output() -> str:
        written = 0
        with output_path.open("wb") as out:
            while chunk := await process.stdout.read(1 << 20):
                written += len(chunk)
                if written > limits.output_bytes:
                    return f"its output passed {limits.output_bytes:,} bytes"
                out.write(chunk)
        await process.wait()
        return ""

    async def stopped() -> str:
        while stop is None or not stop.is_set():
            await asyncio.sleep(0.5)
        return "cancelled"

    logger = asyncio.create_task(read_log())
    watch = asyncio.create_task(stopped())
    reader = asyncio.create_task(read_output())
    peak = None
    try:
        done, _ = await asyncio.wait({reader, watch}, timeout=limits.wall_seconds, return_when=asyncio.FIRST_COMPLETED)
        if reader in done:
            reason = reader.result()
        elif watch in done:
            reason = "cancelled"
        else:
            reason = f"it ran past the time limit of {limits.wall_seconds:g} s"
    finally:
        for task in (watch, reader):
            task.cancel()
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(logger, timeout=5)
        logger.cancel()
        peak = cgroup.peak_memory_bytes()
        await asyncio.to_thread(cgroup.remove)
    text = log.decode("utf-8", errors="replace")
    if not reason and process.returncode != 0:
        code = process.returncode
        reason = f"it ended with exit status {code}" if code >= 0 else f"it was killed by signal {-code}"
        if peak is not None and peak >= limits.memory_bytes * 0.98:
            reason += f" (it reached the memory limit of {limits.memory_bytes / 1024**3:g} GB)"
        elif code in (152, -24):
            reason = "it used up its CPU time limit"
    return TrainingOutcome(not reason, text, reason, limited_by)
