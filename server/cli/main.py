"""The `dynabench` command line: up (local stack), serve, worker, migrate, seed, build-models, ..."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

os.environ.setdefault("PICCOLO_CONF", "server.core.piccolo_conf")


def _configure_logging(verbose: bool = False) -> None:
    # LOG_FORMAT=json|text (default text); secrets are redacted either way (server/observability/logs.py).
    from server.observability.logs import configure_logging

    configure_logging(verbose=verbose)


def cmd_up(args: argparse.Namespace) -> int:
    from server.cli.local_stack import run_local_stack

    return run_local_stack(args)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.observability.logs import logging_config

    _require_env("DATABASE_URL", "REDIS_URL", "JWT_SECRET")
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Several processes behind one port: /metrics must sum all of them (prometheus_client's
        # multiprocess mode; set before any worker process imports prometheus_client).
        import atexit
        import shutil
        import tempfile

        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="dynabench-metrics-")
        atexit.register(shutil.rmtree, os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
    uvicorn.run(
        "server.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        # The app reads X-Forwarded-For itself, from TRUSTED_PROXIES only (server/core/client_address.py):
        # uvicorn's own rewrite would trust any local peer's header by default.
        proxy_headers=False,
        log_level="info",
        log_config=logging_config(level="DEBUG" if getattr(args, "verbose", False) else "INFO"),
        # ACCESS_LOG=1 turns on the app's own access log (route template, status, duration,
        # request id; never the raw path, which may hold an export link's token).
        access_log=False,
        ws_max_size=1024 * 1024,
        # Live messages are small JSON (counters, reply pieces): compressing each one, for every watcher, cost more
        # CPU than it saved bytes (a tenth of a process's fan-out time at 1,000 watchers; issue #32).
        ws_per_message_deflate=False,
    )
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from arq.worker import run_worker

    _require_env("DATABASE_URL", "REDIS_URL")
    from workers.main import WorkerSettings

    run_worker(WorkerSettings)
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    _require_env("DATABASE_URL")
    if args.check:
        from server.cli.backup import run_migrate_check

        return run_migrate_check()
    from server.core import db

    async def run() -> None:
        await db.migrate(verbose=args.verbose)
        if not args.no_seed:
            await _seed()

    asyncio.run(run())
    print("Database is up to date" + ("" if args.no_seed else "; built-in tasks and their scoring datasets are seeded") + ".")
    return 0


async def _seed() -> list[str]:
    from server.cli.seeding import seed_builtin
    from server.core import db

    await db.start_pool(2)
    try:
        return await seed_builtin()
    finally:
        await db.close_pool()


def cmd_create_user(args: argparse.Namespace) -> int:
    _require_env("DATABASE_URL")
    import getpass

    from server.accounts.service import create_user
    from server.core import db

    password = os.environ.get("DYNABENCH_PASSWORD") or getpass.getpass(f"Password for {args.username}: ")

    async def run() -> None:
        await db.start_pool(2)
        try:
            await create_user(args.username, password, is_admin=args.admin)
        finally:
            await db.close_pool()

    asyncio.run(run())
    print(f"User {args.username} saved" + (" (admin)." if args.admin else "."))
    return 0


def cmd_export_schema(args: argparse.Namespace) -> int:
    from server.graphql.schema import export_sdl

    sdl = export_sdl()
    if args.output == "-":
        sys.stdout.write(sdl)
    else:
        Path(args.output).write_text(sdl)
        print(f"Wrote {args.output}")
    return 0


def cmd_model_upload(args: argparse.Namespace) -> int:
    from server.cli.upload import run

    return run(args)


def cmd_build_models(args: argparse.Namespace) -> int:
    from server.cli.modelbuild import run

    return run(args)


def _require_env(*names: str) -> None:
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        raise SystemExit(f"dynabench: set {', '.join(missing)} in the environment (or use `dynabench up` for a local stack).")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dynabench", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="Start the whole stack locally (PostgreSQL, Redis, Triton, worker, API) with demo data")
    up.add_argument("--data-dir", default=os.environ.get("DYNABENCH_DATA_DIR", ".dynabench"), type=Path)
    up.add_argument("--port", type=int, default=int(os.environ.get("DYNABENCH_PORT", "8000")), help="API port")
    up.add_argument("--postgres-port", type=int, default=None)
    up.add_argument("--redis-port", type=int, default=None)
    up.add_argument("--triton-port", type=int, default=None, help="HTTP port of the target-model Triton")
    up.add_argument(
        "--models-profile",
        choices=["full", "fast"],
        default="full",
        help="full: the better target models (minutes to build on first start); fast: seconds, for trying things out",
    )
    up.add_argument(
        "--model-repository",
        type=Path,
        default=None,
        help="serve this prebuilt Triton model repository instead of building the built-in models",
    )
    up.add_argument("--no-worker", action="store_true", help=argparse.SUPPRESS)
    up.set_defaults(func=cmd_up)

    serve = sub.add_parser("serve", help="Run the API against services given by the environment")
    serve.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    serve.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")))
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="Run an arq worker against services given by the environment")
    worker.set_defaults(func=cmd_worker)

    migrate = sub.add_parser("migrate", help="Apply database migrations and seed the built-in tasks and their scoring datasets")
    migrate.add_argument("--no-seed", action="store_true")
    migrate.add_argument("--check", action="store_true", help="only list pending migrations; exit 1 when there are some")
    migrate.set_defaults(func=cmd_migrate)

    from server.cli import backup as backup_cli

    backup = sub.add_parser("backup", help="Write one archive: a consistent database snapshot, stored files, a manifest")
    backup_cli.configure_backup(backup)
    backup.set_defaults(func=backup_cli.run_backup)
    restore = sub.add_parser("restore", help="Verify a backup archive, then rebuild a stack from it (refuses a non-empty one)")
    backup_cli.configure_restore(restore)
    restore.set_defaults(func=backup_cli.run_restore)

    user = sub.add_parser("create-user", help="Create or update a user (password from $DYNABENCH_PASSWORD or a prompt)")
    user.add_argument("username")
    user.add_argument("--admin", action="store_true")
    user.set_defaults(func=cmd_create_user)

    schema = sub.add_parser("export-schema", help="Write the GraphQL SDL")
    schema.add_argument("--output", default="schema.graphql")
    schema.set_defaults(func=cmd_export_schema)

    model = sub.add_parser("model", help="Researchers' models")
    model_sub = model.add_subparsers(dest="model_command", required=True)
    upload = model_sub.add_parser("upload", help="Upload a Triton model repository (directory or archive) with a progress bar")
    from server.cli.upload import configure_parser as configure_upload

    configure_upload(upload)
    upload.set_defaults(func=cmd_model_upload)

    from server.cli import rounds as rounds_cli

    export = sub.add_parser("export", help="Export a round (JSONL like the original releases, or an HF-datasets directory)")
    rounds_cli.configure_export(export)
    export.set_defaults(func=lambda a: (_require_env("DATABASE_URL", "JWT_SECRET"), rounds_cli.run_export(a))[1])

    contexts = sub.add_parser("contexts", help="Task owners: contexts of a round")
    contexts_sub = contexts.add_subparsers(dest="contexts_command", required=True)
    add_contexts = contexts_sub.add_parser(
        "add", help="Add contexts from a JSONL or CSV file through the API, with a progress bar"
    )
    rounds_cli.configure_contexts(add_contexts)
    add_contexts.set_defaults(func=rounds_cli.run_contexts_add)

    train = sub.add_parser("train", help="Task owners: retrain the target model from validated examples (through the API)")
    rounds_cli.configure_train(train)
    train.set_defaults(func=rounds_cli.run_train)

    build = sub.add_parser("build-models", help="Train the built-in target models offline into a Triton model repository")
    try:
        from server.cli.modelbuild import configure_parser
    except ImportError:
        configure_parser = None
    if configure_parser is not None:
        configure_parser(build)
    build.set_defaults(func=cmd_build_models)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _configure_logging(args.verbose)
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
