"""What the agent sees of the sandbox's processes through /proc: which serve a model, their memory, and
killing them. Standard library only (runs inside the sandbox)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

STUB = "triton_python_backend_stub"
# asyncio.wait_for raises asyncio.TimeoutError: the builtin TimeoutError from Python 3.11, another class before it (the
# compose image's python3 may be older), so the agent catches both.
WAIT_TIMEOUT = (TimeoutError, asyncio.TimeoutError)
INSTANCE_SUFFIX = re.compile(r"[0-9]+_[0-9]+")
INSTANCE_NAME = re.compile(r"([^/]+)_[0-9]+_[0-9]+")  # a stub's instance argument: <model>_<group>_<n>


def _instance_of(model: str, argv: list[bytes]) -> bool:
    """Whether a process serves ``model``: the stub, its launcher and its bwraps all carry the instance
    name (``<model>_<n>_<m>``) as an argument."""
    for arg in argv:
        name = arg.decode(errors="replace")
        if name.startswith(f"{model}_") and INSTANCE_SUFFIX.fullmatch(name[len(model) + 1 :]):
            return True
    return False


def model_processes(model: str) -> list[tuple[int, list[bytes]]]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(pid) != os.getpid() and _instance_of(model, argv):
            found.append((int(pid), argv))
    return found


def _status_kib(pid: int | str, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def stub_peak_bytes(model: str) -> int:
    """Sum of VmHWM over the stub processes serving ``model``."""
    peak = 0
    for pid, argv in model_processes(model):
        if not argv[0].endswith(STUB.encode()):
            continue
        try:
            peak += _status_kib(pid, "VmHWM") * 1024
        except (OSError, ValueError):
            continue
    return peak


def kill_model(model: str) -> int:
    """SIGKILL every process of ``model``'s instances (their nested sandboxes die with them): the way
    out for code stuck in initialize or execute, which Triton waits for before it can unload."""
    killed = 0
    for pid, _argv in model_processes(model):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            continue
    return killed


def loaded_models() -> dict[str, int]:
    """{model: resident bytes of its stubs now} for every model whose stubs run (loaded, or loading)."""
    found: dict[str, int] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
            if not args[0].endswith(STUB):
                continue
            model = next((m.group(1) for a in args[1:] if (m := INSTANCE_NAME.fullmatch(a))), None)
            if model is None:
                continue
            rss = _status_kib(pid, "VmRSS") * 1024
        except (OSError, ValueError, IndexError):
            continue
        found[model] = found.get(model, 0) + rss
    return found


def resident_bytes(pid: int) -> int:
    try:
        return _status_kib(pid, "VmRSS") * 1024
    except (OSError, ValueError):
        return 0
