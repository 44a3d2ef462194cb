"""Memory, process and CPU limits for the sandbox as a whole, through a cgroup (v2 or v1).

Only root can make cgroups on most machines; without one the sandbox still limits processes
(RLIMIT_NPROC) and each model instance's CPU time (RLIMIT_CPU, in the stub launcher), and says so.
The cgroup also measures the sandbox's peak memory.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path

from server.sandbox.bwrap import SandboxLimits

ROOT = Path("/sys/fs/cgroup")
CPU_PERIOD_US = 100_000


@dataclass
class SandboxCgroup:
    """One cgroup per controller hierarchy (v1) or a single one (v2)."""

    name: str
    version: int
    paths: dict[str, Path] = field(default_factory=dict)  # controller -> folder ("unified" for v2)

    @classmethod
    def create(cls, name: str, limits: SandboxLimits) -> SandboxCgroup | None:
        """The limited cgroup, or None where cgroups cannot be made (not root, read-only, absent)."""
        try:
            if (ROOT / "cgroup.controllers").exists():
                return cls._create_v2(name, limits)
            if (ROOT / "memory" / "cgroup.procs").exists():
                return cls._create_v1(name, limits)
        except OSError:
            return None
        return None

    @classmethod
    def _create_v2(cls, name: str, limits: SandboxLimits) -> SandboxCgroup:
        (ROOT / "cgroup.subtree_control").write_text("+memory +pids +cpu")
        path = ROOT / name
        path.mkdir(exist_ok=True)
        group = cls(name, 2, {"unified": path})
        if limits.memory_bytes:
            (path / "memory.max").write_text(str(limits.memory_bytes))
            if (path / "memory.swap.max").exists():
                (path / "memory.swap.max").write_text("0")
        if limits.max_processes:
            (path / "pids.max").write_text(str(limits.max_processes))
        if limits.cpu_cores:
            (path / "cpu.max").write_text(f"{int(limits.cpu_cores * CPU_PERIOD_US)} {CPU_PERIOD_US}")
        return group

    @classmethod
    def _create_v1(cls, name: str, limits: SandboxLimits) -> SandboxCgroup:
        paths = {c: ROOT / c / name for c in ("memory", "pids", "cpu") if (ROOT / c / "cgroup.procs").exists()}
        for path in paths.values():
            path.mkdir(exist_ok=True)
        if limits.memory_bytes and "memory" in paths:
            (paths["memory"] / "memory.limit_in_bytes").write_text(str(limits.memory_bytes))
        if limits.max_processes and "pids" in paths:
            (paths["pids"] / "pids.max").write_text(str(limits.max_processes))
        if limits.cpu_cores and "cpu" in paths:
            (paths["cpu"] / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
            (paths["cpu"] / "cpu.cfs_quota_us").write_text(str(int(limits.cpu_cores * CPU_PERIOD_US)))
        return cls(name, 1, paths)

    def enter(self) -> None:
        """Move the calling process into the cgroup (called in the child before exec)."""
        for path in self.paths.values():
            (path / "cgroup.procs").write_text(str(os.getpid()))

    def peak_memory_bytes(self) -> int | None:
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        folder = self.paths.get("unified" if self.version == 2 else "memory")
        try:
            return int((folder / name).read_text()) if folder else None
        except (OSError, ValueError):
            return None

    def describe(self) -> str:
        return f"cgroup v{self.version} {self.name}"

    def remove(self) -> None:
        """Kill what is left in the cgroup and delete its folders (rmdir fails until they are gone)."""
        for path in self.paths.values():
            _kill_and_remove(path)


def _kill_and_remove(path: Path, wait_s: float = 10.0) -> None:
    deadline = time.monotonic() + wait_s
    while True:
        try:
            for pid in (path / "cgroup.procs").read_text().split():
                try:
                    os.kill(int(pid), 9)
                except ProcessLookupError:
                    pass
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)


def remove_stale(prefix: str = "dynabench-sandbox-") -> None:
    """Delete the cgroups of sandboxes whose owner (the pid in the name) is gone: a stack killed hard
    cannot clean up after itself."""
    for folder in [ROOT, *(ROOT / c for c in ("memory", "pids", "cpu"))]:
        try:
            children = [child for child in folder.iterdir() if child.name.startswith(prefix)]
        except OSError:
            continue
        for child in children:
            owner = child.name[len(prefix) :].split("-", 1)[0]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                _kill_and_remove(child, wait_s=2.0)


def rlimits(limits: SandboxLimits) -> None:
    """The fallback without a cgroup, applied in the child before exec."""
    if limits.max_processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.max_processes, limits.max_processes))
