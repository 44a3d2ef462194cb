"""A real Triton Inference Server (the nvidia-pytriton wheel's tritonserver 2.51) as our child."""

from __future__ import annotations

import fcntl
import importlib.metadata
import importlib.util
import os
import shutil
import signal
import sys
import sysconfig
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from server.core.triton_clients import CONTROL_HEADER
from server.runtime._process import ChildService
from server.runtime.errors import ServiceStartError
from server.runtime.ports import HOST, ensure_port_free, free_port, port_is_free

_MARKER = ".dynabench-triton-runtime"
_STUB = "triton_python_backend_stub"


def _pytriton_dir() -> Path:
    # Located without importing pytriton (a heavy import we do not need).
    spec = importlib.util.find_spec("pytriton")
    if spec is None or not spec.submodule_search_locations:
        raise ServiceStartError("Triton", "the nvidia-pytriton package is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _runtime_tag() -> str:
    version = importlib.metadata.version("nvidia-pytriton")
    return f"nvidia-pytriton {version}; python {sys.version_info.major}.{sys.version_info.minor}\n"


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with open(path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def prepare_triton_runtime(runtime_dir: Path) -> Path:
    """Copy the wheel's tritonserver tree to ``runtime_dir`` with this Python's backend stub.

    Skipped when ``runtime_dir`` already holds a copy for the same pytriton and Python version.
    Safe against concurrent callers (file lock + copy-then-rename).
    """
    runtime_dir = Path(runtime_dir).absolute()
    tag = _runtime_tag()
    marker = runtime_dir / _MARKER
    if marker.exists() and marker.read_text() == tag:
        return runtime_dir
    runtime_dir.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(runtime_dir.parent / f".{runtime_dir.name}.lock"):
        if marker.exists() and marker.read_text() == tag:
            return runtime_dir
        if runtime_dir.exists() and any(runtime_dir.iterdir()) and not marker.exists():
            raise ServiceStartError("Triton", f"{runtime_dir} is not empty and was not prepared by us; refusing to overwrite it")
        src = _pytriton_dir() / "tritonserver"
        stub = src / "python_backend_stubs" / f"{sys.version_info.major}.{sys.version_info.minor}" / _STUB
        if not stub.exists():
            raise ServiceStartError("Triton", f"no python backend stub for Python {sys.version.split()[0]} at {stub}")
        staging = runtime_dir.with_name(f".{runtime_dir.name}.staging-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(src, staging, ignore=shutil.ignore_patterns("python_backend_stubs", "__pycache__"))
        shutil.copy2(stub, staging / "backends" / "python" / _STUB)
        (staging / _MARKER).write_text(tag)
        if runtime_dir.exists():
            old = runtime_dir.with_name(f".{runtime_dir.name}.old-{os.getpid()}")
            runtime_dir.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        staging.rename(runtime_dir)
    return runtime_dir


def _libpython_dir() -> str | None:
    libdir = sysconfig.get_config_var("LIBDIR")
    soname = sysconfig.get_config_var("INSTSONAME") or sysconfig.get_config_var("LDLIBRARY")
    if libdir and soname and (Path(libdir) / soname).exists():
        return str(libdir)
    return None


def triton_environment() -> dict[str, str]:
    """Environment for tritonserver whose python-backend stub runs with this venv's Python."""
    env = dict(os.environ)
    # The stub links libpython3.11.so.1.0: without our libdir first it may load the distro's
    # copy and fail with "undefined symbol" against this interpreter's stdlib extensions.
    lib_dirs = [d for d in (_libpython_dir(), str(_pytriton_dir().parent / "nvidia_pytriton.libs")) if d]
    if env.get("LD_LIBRARY_PATH"):
        lib_dirs.append(env["LD_LIBRARY_PATH"])
    env["LD_LIBRARY_PATH"] = os.pathsep.join(lib_dirs)
    # The stub's embedded interpreter finds its prefix (and so the venv's site-packages with
    # numpy/torch/transformers) by locating python3 on PATH.
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", os.defpath)])
    env.pop("PYTHONHOME", None)
    env.setdefault("HF_HUB_OFFLINE", "1")  # no model hub is reachable; fail fast instead of retrying
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    return env


def restricted_control(key: str) -> list[str]:
    """tritonserver options that make the model-repository and model-config APIs require the key header."""
    restricted = f"model-repository,model-config,shared-memory,trace,logging:{CONTROL_HEADER}={key}"
    return [f"--http-restricted-api={restricted}", f"--grpc-restricted-protocol={restricted}"]


def _http_ok(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


class LocalTriton(ChildService):
    """tritonserver in explicit model-control mode on loopback HTTP/gRPC/metrics ports."""

    service_name = "Triton"
    stop_steps = ((signal.SIGTERM, 30.0),)

    def __init__(
        self,
        runtime_dir: Path,
        model_repository: Path,
        http_port: int | None = None,
        grpc_port: int | None = None,
        metrics_port: int | None = None,
        log_path: Path | None = None,
        load_models: list[str] | None = None,
        *,
        name: str = "Triton",
        exit_timeout_secs: int = 3,
        extra_args: list[str] | None = None,
        port_options: tuple[str | None, str | None, str | None] = (
            "--triton-http-port",
            "--triton-grpc-port",
            "--triton-metrics-port",
        ),
        start_timeout: float = 60.0,
        model_load_timeout: float = 120.0,
    ) -> None:
        self.runtime_dir = Path(runtime_dir).absolute()
        self.model_repository = Path(model_repository).absolute()
        self.service_name = name
        self._auto_ports = (http_port is None, grpc_port is None, metrics_port is None)
        self.http_port = http_port if http_port is not None else free_port()
        self.grpc_port = grpc_port if grpc_port is not None else free_port()
        self.metrics_port = metrics_port if metrics_port is not None else free_port()
        super().__init__(Path(log_path) if log_path else self.runtime_dir / "logs" / f"tritonserver-{self.http_port}.log")
        self.load_models = list(load_models or [])
        # Triton waits this long on SIGTERM for in-flight requests *and* idle HTTP keep-alive
        # connections, so a large value makes every stop slow while a client is connected.
        self.exit_timeout_secs = exit_timeout_secs
        self._shm_prefix = ""
        self.extra_args = list(extra_args or [])
        self.port_options = port_options
        self.start_timeout = start_timeout
        self.model_load_timeout = model_load_timeout

    @property
    def http_url(self) -> str:
        """tritonclient.http style: host:port without scheme."""
        return f"{HOST}:{self.http_port}"

    @property
    def grpc_url(self) -> str:
        return f"{HOST}:{self.grpc_port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{HOST}:{self.metrics_port}/metrics"

    def _pick_ports(self) -> None:
        ports = [self.http_port, self.grpc_port, self.metrics_port]
        if self._proc is None:  # first start: replace auto-picked ports that got taken meanwhile
            for i, auto in enumerate(self._auto_ports):
                if auto and not port_is_free(ports[i]):
                    ports[i] = free_port()
        self.http_port, self.grpc_port, self.metrics_port = ports
        for port, option in zip(ports, self.port_options):
            ensure_port_free(port, self.service_name, option)

    def start(self) -> None:
        """Start tritonserver, wait for /v2/health/live, then for every model in ``load_models``."""
        if self.running:
            return
        prepare_triton_runtime(self.runtime_dir)
        self._pick_ports()
        self.model_repository.mkdir(parents=True, exist_ok=True)
        # Python-backend shared-memory regions are global names: keep instances apart.
        self._shm_prefix = shm_prefix = f"dynabench-{os.getpid()}-{uuid.uuid4().hex[:8]}-"
        argv = [
            str(self.runtime_dir / "bin" / "tritonserver"),
            f"--model-repository={self.model_repository}",
            f"--backend-directory={self.runtime_dir / 'backends'}",
            f"--cache-directory={self.runtime_dir / 'caches'}",
            "--model-control-mode=explicit",
            f"--http-address={HOST}",
            f"--http-port={self.http_port}",
            f"--grpc-address={HOST}",
            f"--grpc-port={self.grpc_port}",
            f"--metrics-address={HOST}",
            f"--metrics-port={self.metrics_port}",
            "--allow-gpu-metrics=false",
            f"--exit-timeout-secs={self.exit_timeout_secs}",
            f"--backend-config=python,shm-region-prefix-name={shm_prefix}",
            *[f"--load-model={name}" for name in self.load_models],
            *self.extra_args,
        ]
        self._launch(argv, env=triton_environment(), cwd=self.runtime_dir, death_signal=signal.SIGTERM)
        # Triton loads --load-model models before it serves HTTP, so live waits for them too.
        live_timeout = self.start_timeout + (self.model_load_timeout if self.load_models else 0)
        self._wait_until(lambda: _http_ok(f"http://{self.http_url}/v2/health/live"), live_timeout, "Triton to report live")
        for name in self.load_models:
            self.wait_model_ready(name, stop_on_failure=True)

    def model_ready(self, name: str, version: str = "") -> bool:
        """True if Triton reports model ``name`` ready."""
        path = f"/v2/models/{urllib.parse.quote(name)}" + (f"/versions/{version}" if version else "") + "/ready"
        return _http_ok(f"http://{self.http_url}{path}")

    def wait_model_ready(self, name: str, timeout: float | None = None, stop_on_failure: bool = False) -> None:
        """Block until model ``name`` is ready; ServiceStartError with the log tail otherwise."""
        self._wait_until(
            lambda: self.model_ready(name),
            timeout or self.model_load_timeout,
            f"model {name!r} to become ready",
            stop_on_failure=stop_on_failure,
        )

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM (Triton drains for up to exit_timeout_secs), SIGKILL after ``timeout``; idempotent."""
        super().stop(timeout)

    def _terminate(self, steps: Sequence[tuple[int, float]]) -> int | None:
        code = super()._terminate(steps)
        # Triton leaves python-backend regions in /dev/shm when it exits on its exit timeout
        # (e.g. a client kept an idle keep-alive connection open) or on a failed start.
        if self._shm_prefix:
            for leftover in Path("/dev/shm").glob(f"{self._shm_prefix}*"):
                leftover.unlink(missing_ok=True)
        return code

    def restart(self) -> None:
        """Stop and start on the same ports; only ``load_models`` are loaded again."""
        self.stop()
        self.start()
