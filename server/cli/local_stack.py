"""`dynabench up`: the whole stack on this machine, as supervised child processes.

PostgreSQL, Redis (append-only), the target-model Triton, the sandboxed submissions Triton, the
arq worker and the API. State lives in the data directory and is reused on the next start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from server.runtime import (
    LocalPostgres,
    LocalRedis,
    LocalTriton,
    ServiceGroup,
    ServiceStartError,
    ensure_port_free,
    free_port,
    prepare_triton_runtime,
)
from server.runtime.postgres import settings_from_env
from server.runtime.sandboxed_triton import SandboxedTriton
from server.runtime.triton import restricted_control
from server.sandbox.bwrap import SandboxLimits

STEPS = 7


class _Progress:
    def __init__(self) -> None:
        self.step = 0

    @contextmanager
    def __call__(self, what: str):
        self.step += 1
        started = time.perf_counter()
        print(f"[{self.step}/{STEPS}] {what}…", flush=True)
        yield
        print(f"      done in {time.perf_counter() - started:.1f} s", flush=True)


SECRET_KEYS = {
    "jwt_secret": 48,
    "admin_password": 12,  # the demo admin's
    "postgres_password": 32,  # SCRAM, even on loopback
    "redis_password": 32,
    "triton_control_key": 32,  # both Tritons' model-repository and model-config APIs
}


def _secrets(data_dir: Path) -> dict:
    """Generated once (missing ones added to an older file), readable by the owner only (0600)."""
    path = data_dir / "secrets.json"
    values = json.loads(path.read_text()) if path.exists() else {}
    missing = {key: secrets.token_urlsafe(size) for key, size in SECRET_KEYS.items() if key not in values}
    if missing or not path.exists():
        values.update(missing)
        staging = path.with_name(".secrets.json.new")
        staging.unlink(missing_ok=True)
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(values))
        staging.replace(path)
    path.chmod(0o600)
    return values


def _model_names(repository: Path) -> list[str]:
    return sorted(p.name for p in repository.iterdir() if (p / "config.pbtxt").exists()) if repository.exists() else []


def _build_models(repository: Path, profile: str) -> None:
    from server.cli.modelbuild import run

    # The same code path as `dynabench build-models` (progress bars included); cached by key.
    options = argparse.Namespace(output=repository, tasks=None, profile=profile, base_model=None, data=[], force=False)
    if run(options) != 0:
        raise ServiceStartError("build-models", "building the target models failed (see above)")


async def _migrate_and_seed(admin_password: str | None) -> None:
    from server.accounts.service import create_user
    from server.cli.seeding import seed_builtin
    from server.core import db

    await db.migrate()
    if admin_password is None:
        return
    await db.start_pool(2)
    try:
        await seed_builtin()
        await create_user("admin", admin_password, is_admin=True)
    finally:
        await db.close_pool()


def _wait_healthy(url: str, timeout: float, group: ServiceGroup, absent: frozenset[str] = frozenset()) -> None:
    """Until /health answers 200, or 503 with only the ``absent`` services failing (a known state)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        died = group.first_exited()
        if died:
            raise ServiceStartError(died[0], f"exited with code {died[1]} during start-up")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError as error:
            checks = json.loads(error.read() or b"{}").get("services", {}) if error.code == 503 else {}
            if checks and absent and {name for name, check in checks.items() if not check.get("ok")} <= absent:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise ServiceStartError("API", f"{url} did not answer 200 within {timeout:.0f} s")


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


@dataclass
class LocalStack:
    """The whole stack as supervised children; used by `dynabench up`, the tests and the benchmarks."""

    data_dir: Path
    api_port: int | None = None
    postgres_port: int | None = None
    redis_port: int | None = None
    triton_port: int | None = None
    model_repository: Path | None = None  # None: DATA_DIR/model_repository, built with models_profile
    models_profile: str | None = "full"  # None: build nothing
    load_models: bool = True
    seed: bool = True  # the built-in tasks and the demo admin
    durable: bool = True  # False (tests): PostgreSQL without fsync
    api_processes: int = 1
    worker_processes: int = 1
    log_format: str = "text"  # LOG_FORMAT of the API and workers: text (readable) or json (one object per line)
    access_log: bool = False  # ACCESS_LOG: one log line per HTTP request
    env: dict[str, str] = field(default_factory=dict)
    api_urls: list[str] = field(default_factory=list)
    worker_metrics_urls: list[str] = field(default_factory=list)  # one Prometheus endpoint per worker
    sandbox_problem: str = ""  # why the submissions sandbox did not start ("" when it runs)

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir).absolute()
        self.group = ServiceGroup(stop_timeout=15)
        self.logs = self.data_dir / "logs"
        self._stopping = threading.Event()

    @property
    def api_url(self) -> str:
        return self.api_urls[0]

    def start(self, progress=None) -> LocalStack:
        progress = progress or _quiet
        # Every service of this stack shares the machine's cores: torch's idle OpenMP threads (the Tritons' classifiers,
        # the worker's training) sleep rather than spin, or they starve the threads with work (bench/omp_wait.py: a
        # training step 3-4x slower beside two busy processes). An operator's own OMP_WAIT_POLICY is kept.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(exist_ok=True)
        api_ports = [self.api_port or free_port()] + [free_port() for _ in range(self.api_processes - 1)]
        ensure_port_free(api_ports[0], "API", "--port")
        self.secrets = _secrets(self.data_dir)
        with progress("Starting PostgreSQL"):
            self.postgres = self.group.add(
                "postgres",
                LocalPostgres(
                    self.data_dir / "postgres",
                    self.postgres_port,
                    durable=self.durable,
                    password=self.secrets["postgres_password"],
                    settings=settings_from_env(),
                ),
            )
        with progress("Starting Redis (append-only)"):
            self.redis = self.group.add(
                "redis", LocalRedis(self.data_dir / "redis", self.redis_port, password=self.secrets["redis_password"])
            )
        repository = self._model_repository(progress)
        with progress("Starting Triton (target models) and Triton (submissions sandbox)"):
            runtime = prepare_triton_runtime(self.data_dir / "triton_runtime")
            self.triton = self.group.add(
                "triton",
                LocalTriton(
                    runtime,
                    repository,
                    http_port=self.triton_port,
                    log_path=self.logs / "triton.log",
                    load_models=_model_names(repository) if self.load_models else None,
                    extra_args=restricted_control(self.secrets["triton_control_key"]),
                ),
            )
            self.triton_submissions = self._start_sandbox(runtime)
            if self.triton_submissions is not None:
                threading.Thread(target=self._watch_sandbox, name="sandbox-watchdog", daemon=True).start()
        self.env = {
            "DATABASE_URL": self.postgres.dsn,
            "REDIS_URL": self.redis.url,
            "TRITON_URL": self.triton.http_url,
            "TRITON_SUBMISSIONS_URL": self.triton_submissions.url if self.triton_submissions else "unix:/nonexistent",
            "TRITON_SUBMISSIONS_STATS_URL": self.triton_submissions.stats_url if self.triton_submissions else "",
            "TRITON_CONTROL_KEY": self.secrets["triton_control_key"],
            "UPLOADS_DISABLED_REASON": self.sandbox_problem,
            "JWT_SECRET": self.secrets["jwt_secret"],
            "PICCOLO_CONF": "server.core.piccolo_conf",
            "MODEL_STORE_DIR": str(self.data_dir / "model_store"),
            "TARGET_MODEL_REPOSITORY": str(repository),
            "LOG_FORMAT": self.log_format,
            "ACCESS_LOG": "1" if self.access_log else "0",
        }
        os.environ.update(self.env)
        with progress("Applying migrations" + (" and seeding the four built-in tasks" if self.seed else "")):
            asyncio.run(_migrate_and_seed(self.secrets["admin_password"] if self.seed else None))
        with progress("Starting the worker"):
            self.worker_metrics_urls = []
            for i in range(self.worker_processes):
                # Each worker its own metrics port (not in self.env: extra workers started with it serve none).
                port = free_port()
                self.group.spawn(
                    f"worker-{i}",
                    [sys.executable, "-m", "server.cli", "worker"],
                    env={**self.env, "WORKER_METRICS_PORT": str(port)},
                    log_path=self.logs / f"worker-{i}.log",
                )
                self.worker_metrics_urls.append(f"http://127.0.0.1:{port}/metrics")
        with progress(f"Starting the API on 127.0.0.1:{api_ports[0]}"):
            for i, port in enumerate(api_ports):
                self.group.spawn(
                    f"api-{i}",
                    [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                    env=self.env,
                    log_path=self.logs / f"api-{i}.log",
                )
            self.api_urls = [f"http://127.0.0.1:{port}" for port in api_ports]
            for url in self.api_urls:
                absent = frozenset({"triton_submissions"} if self.sandbox_problem else ())
                _wait_healthy(f"{url}/health", 90, self.group, absent)
        # Where the running stack's services are, for `dynabench backup --data-dir` (secrets inside: owner only).
        fd = os.open(self.data_dir / "stack.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps({**self.env, "API_URLS": " ".join(self.api_urls)}))
        return self

    def _start_sandbox(self, runtime: Path) -> SandboxedTriton | None:
        """The submissions Triton in the OS sandbox; None (and uploads refused) if the sandbox cannot start."""
        sandboxed = SandboxedTriton(
            runtime,
            self.data_dir / "sandbox",
            self.secrets["triton_control_key"],
            log_path=self.logs / "triton-submissions.log",
            limits=SandboxLimits.from_env(),
        )
        try:
            sandboxed.start()
        except ServiceStartError as exc:
            self.sandbox_problem = f"the sandbox for uploaded models could not start ({exc.reason})"
            print(f"\nWARNING: {self.sandbox_problem}. Model uploads are refused until it can.\n", file=sys.stderr)
            return None
        return self.group.add("triton-submissions", sandboxed, start=False)

    def _model_repository(self, progress) -> Path:
        if self.model_repository is not None:
            repository = Path(self.model_repository).absolute()
            if self.load_models and not _model_names(repository):
                raise ServiceStartError("Triton", f"{repository} holds no model (no */config.pbtxt)")
            return repository
        repository = self.data_dir / "model_repository"
        repository.mkdir(exist_ok=True)
        if self.models_profile:
            with progress(f"Building target models ({self.models_profile} profile; cached after the first start)"):
                _build_models(repository, self.models_profile)
        return repository

    def _watch_sandbox(self) -> None:
        """Restart the submissions Triton when an uploaded model brings it down (e.g. by exhausting the
        sandbox's memory): the platform keeps running; deploy and evaluation jobs load models again."""
        while not self._stopping.wait(0.5):
            sandboxed = self.triton_submissions
            if sandboxed is None or sandboxed.poll() is None:
                continue
            print(f"Triton (submissions sandbox) exited with code {sandboxed.poll()}; restarting it.", file=sys.stderr)
            try:
                sandboxed.restart()
            except ServiceStartError as exc:
                print(f"Restarting the submissions sandbox failed: {exc}", file=sys.stderr)
                self._stopping.wait(30)

    def stop(self) -> None:
        self._stopping.set()
        (self.data_dir / "stack.json").unlink(missing_ok=True)
        self.group.stop_all()


@contextmanager
def _quiet(what: str):
    yield


def run_local_stack(args: argparse.Namespace) -> int:
    # SIGTERM during start-up must unwind like Ctrl-C so that `finally` stops every child.
    signal.signal(signal.SIGTERM, _interrupt)
    stack = LocalStack(
        data_dir=args.data_dir,
        api_port=args.port,
        postgres_port=args.postgres_port,
        redis_port=args.redis_port,
        triton_port=args.triton_port,
        model_repository=args.model_repository,
        models_profile=args.models_profile,
    )
    running = False
    try:
        stack.start(_Progress())
        running = True  # from here on, Ctrl-C or SIGTERM is the normal way to stop: exit 0
        url = stack.api_url
        print(
            f"\nDynabench is running at {url}/  (GraphQL: {url}/graphql, health: {url}/health)\n"
            f"Demo admin: admin / {stack.secrets['admin_password']}   (stored in {stack.data_dir / 'secrets.json'})\n"
            f"Metrics: {url}/metrics (API), {', '.join(stack.worker_metrics_urls)} (worker), "
            f"{stack.triton.metrics_url} (Triton)\n"
            f"Uploaded models: {stack.triton_submissions.isolation if stack.triton_submissions else 'REFUSED (' + stack.sandbox_problem + ')'}\n"
            f"Logs: {stack.logs}   Press Ctrl-C to stop.\n",
            flush=True,
        )
        died = stack.group.wait()
        while died and died[0] == "triton-submissions":  # the watchdog restarts it
            time.sleep(1)
            died = stack.group.wait()
        if died:
            print(f"\n{died[0]} exited unexpectedly (code {died[1]}); see {stack.logs}. Stopping everything.", file=sys.stderr)
            return 1
        print("\nStopping…", flush=True)
        return 0
    except ServiceStartError as exc:
        print(f"\ndynabench up: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nStopping…" if running else "\nInterrupted during start-up; stopping…", flush=True)
        return 0 if running else 130
    finally:
        stack.stop()
        print("All services stopped.", flush=True)
