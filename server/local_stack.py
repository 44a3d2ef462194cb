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
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from server.runtime import (
    LocalPostgres,
    LocalRedis,
    LocalTriton,
    ServiceGroup,
    ServiceStartError,
    ensure_port_free,
    prepare_triton_runtime,
)

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


def _secrets(data_dir: Path) -> dict:
    """JWT secret and the demo admin's password: generated once, kept private in the data dir."""
    path = data_dir / "secrets.json"
    if path.exists():
        return json.loads(path.read_text())
    values = {"jwt_secret": secrets.token_urlsafe(48), "admin_password": secrets.token_urlsafe(12)}
    path.write_text(json.dumps(values))
    path.chmod(0o600)
    return values


def _model_names(repository: Path) -> list[str]:
    return sorted(p.name for p in repository.iterdir() if (p / "config.pbtxt").exists()) if repository.exists() else []


def _build_models(repository: Path, profile: str) -> None:
    from server.modelbuild.cli import run

    # The same code path as `dynabench build-models` (progress bars included); cached by key.
    options = argparse.Namespace(output=repository, tasks=None, profile=profile, base_model=None, data=[], force=False)
    if run(options) != 0:
        raise ServiceStartError("build-models", "building the target models failed (see above)")


async def _migrate_and_seed(admin_password: str) -> None:
    from server import db
    from server.accounts.service import create_user
    from server.tasks.builtin import seed_builtin_tasks

    await db.migrate()
    await db.start_pool(2)
    try:
        await seed_builtin_tasks()
        await create_user("admin", admin_password, is_admin=True)
    finally:
        await db.close_pool()


def _wait_http_ok(url: str, timeout: float, group: ServiceGroup) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        died = group.first_exited()
        if died:
            raise ServiceStartError(died[0], f"exited with code {died[1]} during start-up")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise ServiceStartError("API", f"{url} did not answer 200 within {timeout:.0f} s")


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def run_local_stack(args: argparse.Namespace) -> int:
    # SIGTERM during start-up must unwind like Ctrl-C so that `finally` stops every child.
    signal.signal(signal.SIGTERM, _interrupt)
    data_dir: Path = args.data_dir.absolute()
    data_dir.mkdir(parents=True, exist_ok=True)
    logs = data_dir / "logs"
    logs.mkdir(exist_ok=True)
    progress = _Progress()
    group = ServiceGroup(stop_timeout=15)
    try:
        ensure_port_free(args.port, "API", "--port")
        values = _secrets(data_dir)
        with progress("Starting PostgreSQL"):
            postgres = group.add("postgres", LocalPostgres(data_dir / "postgres", args.postgres_port))
        with progress("Starting Redis (append-only)"):
            redis = group.add("redis", LocalRedis(data_dir / "redis", args.redis_port))
        if args.model_repository is not None:
            repository = args.model_repository.absolute()
            with progress(f"Using the model repository {repository}"):
                if not _model_names(repository):
                    raise ServiceStartError("Triton", f"{repository} holds no model (no */config.pbtxt)")
        else:
            repository = data_dir / "model_repository"
            with progress(f"Building target models ({args.models_profile} profile; cached after the first start)"):
                _build_models(repository, args.models_profile)
        with progress("Starting Triton (target models) and Triton (submissions sandbox)"):
            runtime = prepare_triton_runtime(data_dir / "triton_runtime")
            triton = group.add(
                "triton",
                LocalTriton(runtime, repository, http_port=args.triton_port, log_path=logs / "triton.log",
                            load_models=_model_names(repository)),
            )
            submissions_repository = data_dir / "submissions_repository"
            submissions_repository.mkdir(exist_ok=True)
            submissions = group.add(
                "triton-submissions",
                LocalTriton(runtime, submissions_repository, log_path=logs / "triton-submissions.log",
                            name="Triton (submissions)"),
            )
        env = {
            "DATABASE_URL": postgres.dsn,
            "REDIS_URL": redis.url,
            "TRITON_URL": triton.http_url,
            "TRITON_SUBMISSIONS_URL": submissions.http_url,
            "JWT_SECRET": values["jwt_secret"],
            "PICCOLO_CONF": "server.piccolo_conf",
        }
        os.environ.update(env)
        with progress("Applying migrations and seeding the four built-in tasks"):
            asyncio.run(_migrate_and_seed(values["admin_password"]))
        with progress("Starting the worker"):
            group.spawn("worker", [sys.executable, "-m", "server.cli", "worker"], env=env, log_path=logs / "worker.log")
        with progress(f"Starting the API on 127.0.0.1:{args.port}"):
            group.spawn(
                "api",
                [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(args.port)],
                env=env,
                log_path=logs / "api.log",
            )
            _wait_http_ok(f"http://127.0.0.1:{args.port}/health", 60, group)
        url = f"http://127.0.0.1:{args.port}"
        print(
            f"\nDynabench is running at {url}/  (GraphQL: {url}/graphql, health: {url}/health)\n"
            f"Demo admin: admin / {values['admin_password']}   (stored in {data_dir / 'secrets.json'})\n"
            f"Logs: {logs}   Press Ctrl-C to stop.\n",
            flush=True,
        )
        died = group.wait()
        if died:
            print(f"\n{died[0]} exited unexpectedly (code {died[1]}); see {logs}. Stopping everything.", file=sys.stderr)
            return 1
        print("\nStopping…", flush=True)
        return 0
    except ServiceStartError as exc:
        print(f"\ndynabench up: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nInterrupted; stopping…", flush=True)
        return 130
    finally:
        group.stop_all()
        print("All services stopped.", flush=True)
