"""`dynabench backup`, `dynabench restore` and `dynabench migrate --check`.

Targets: a local stack's data directory (`--data-dir`, the layout `dynabench up` makes; a backup needs the stack
running, a restore builds a new one there), or the services the environment names (DATABASE_URL, MODEL_STORE_DIR,
TARGET_MODEL_REPOSITORY) as in production."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

from server.backup import archive, retention
from server.backup.database import BackupError
from server.backup.manifest import DamagedArchive, Manifest

STACK_STATE = "stack.json"  # written by a running `dynabench up` (0600): its services' addresses
ENV_SECRETS = ("JWT_SECRET", "TRITON_CONTROL_KEY", "METRICS_TOKEN", "SMTP_PASSWORD")


def configure_backup(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--output", "-o", type=Path, help="the archive to write (a .tar)")
    where.add_argument("--output-dir", type=Path, help="write dynabench-<UTC time>.tar here (scheduled backups)")
    parser.add_argument("--keep", type=int, default=7, help="with --output-dir: keep the newest N backups (default 7)")
    parser.add_argument("--every", type=float, help="with --output-dir: repeat every N seconds (a backup service)")
    parser.add_argument("--data-dir", type=Path, help="back up the running `dynabench up` stack of this directory")
    parser.add_argument(
        "--include-secrets", action="store_true", help="also the secrets (JWT key, service passwords); the archive says so"
    )


def configure_restore(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("archive", type=Path)
    parser.add_argument("--data-dir", type=Path, help="build a local stack here (then `dynabench up --data-dir DIR`)")
    parser.add_argument("--force", action="store_true", help="replace a database or files that are already there")
    parser.add_argument("--secrets-to", type=Path, help="write the archive's secrets to this file (mode 0600)")


def _fail(message: str) -> int:
    print(f"dynabench: {message}", file=sys.stderr)
    return 2


def _stack_env(data_dir: Path) -> dict[str, str]:
    state = data_dir / STACK_STATE
    if not state.exists():
        raise BackupError(f"no running stack in {data_dir} (start it with `dynabench up --data-dir {data_dir}`)")
    return json.loads(state.read_text())


def _areas(env: dict[str, str]) -> dict[str, Path]:
    areas = {}
    if env.get("MODEL_STORE_DIR"):
        areas["model_store"] = Path(env["MODEL_STORE_DIR"])
    if env.get("TARGET_MODEL_REPOSITORY"):
        areas["target_models"] = Path(env["TARGET_MODEL_REPOSITORY"])
    return areas


def run_backup(args: argparse.Namespace) -> int:
    if args.output is not None:
        return _backup_once(args, args.output)
    if args.keep < 1:
        return _fail("--keep must be at least 1")
    while True:
        status = _backup_once(args, args.output_dir / retention.backup_name(dt.datetime.now(dt.UTC)))
        if status == 0:
            for name in retention.to_prune(sorted(p.name for p in args.output_dir.iterdir()), args.keep):
                (args.output_dir / name).unlink(missing_ok=True)
                print(f"Removed {name} (keeping the newest {args.keep})")
        if not args.every:
            return status
        time.sleep(args.every)  # a failed backup is retried at the next turn (and said on stderr)


def _backup_once(args: argparse.Namespace, output: Path) -> int:
    try:
        if args.data_dir:
            env = _stack_env(args.data_dir)
            secrets_file = args.data_dir / "secrets.json"
            secrets = json.loads(secrets_file.read_text()) if args.include_secrets and secrets_file.exists() else None
        else:
            env = dict(os.environ)
            if not env.get("DATABASE_URL"):
                return _fail("set DATABASE_URL (or give --data-dir of a running local stack)")
            secrets = {k: env[k] for k in ENV_SECRETS if env.get(k)} if args.include_secrets else None
        manifest = archive.create(output, env["DATABASE_URL"], _areas(env), secrets)
    except (BackupError, OSError) as exc:
        return _fail(f"backup failed: {exc}")
    rows = sum(t["rows"] for t in manifest.tables.values())
    print(
        f"Wrote {output}: {len(manifest.tables)} tables ({rows} rows, one snapshot), "
        f"{len(manifest.members) - 1} files" + (", secrets INCLUDED" if manifest.secrets_included else ", no secrets"),
        flush=True,
    )
    if manifest.missing_files:
        print(f"  {len(manifest.missing_files)} files were deleted while the backup ran (not needed by the snapshot)")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    try:
        manifest = archive.verify(args.archive)  # before anything starts: a damaged archive changes nothing
        if args.data_dir:
            return _restore_local(args, manifest)
        for name in ("DATABASE_URL", "MODEL_STORE_DIR"):
            if not os.environ.get(name):
                return _fail(f"set {name} (or give --data-dir to build a local stack)")
        areas = _areas(dict(os.environ))
        restored = archive.restore(args.archive, manifest, os.environ["DATABASE_URL"], areas, force=args.force)
        return _finish(args, restored)
    except DamagedArchive as exc:
        return _fail(f"refused: the archive is damaged: {exc}")
    except BackupError as exc:
        return _fail(f"restore failed: {exc}")


def _restore_local(args: argparse.Namespace, manifest: Manifest) -> int:
    from server.cli.local_stack import SECRET_KEYS, _secrets
    from server.runtime.postgres import LocalPostgres

    data_dir: Path = args.data_dir.absolute()
    cluster = data_dir / "postgres" / "pgdata"
    if not args.force and cluster.is_dir() and any(cluster.iterdir()):
        raise BackupError(f"the target is not empty ({cluster} holds a database); use another directory, or --force")
    data_dir.mkdir(parents=True, exist_ok=True)
    if manifest.secrets_included and not (data_dir / "secrets.json").exists():
        # The same secrets as the backed-up stack: sessions, keyed pseudonyms and the demo admin's password hold.
        kept = {k: v for k, v in archive.read_secrets(args.archive).items() if k in SECRET_KEYS}
        fd = os.open(data_dir / "secrets.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(kept))
    secrets = _secrets(data_dir)
    postgres = LocalPostgres(data_dir / "postgres", password=secrets["postgres_password"])
    postgres.start()
    try:
        os.environ["DATABASE_URL"] = postgres.dsn
        areas = {"model_store": data_dir / "model_store", "target_models": data_dir / "model_repository"}
        restored = archive.restore(args.archive, manifest, postgres.dsn, areas, force=args.force)
        return _finish(args, restored)
    finally:
        postgres.stop()


def _finish(args: argparse.Namespace, restored: archive.Restored) -> int:
    from server.core import db

    pending = asyncio.run(db.pending_migrations())
    if pending:
        asyncio.run(db.migrate())
    if restored.secrets is not None and args.secrets_to:
        fd = os.open(args.secrets_to, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(restored.secrets))
    tables = restored.manifest.tables
    print(
        f"Restored {len(tables)} tables ({sum(t['rows'] for t in tables.values())} rows; every table's count and content "
        f"hash equal the backup's) and {restored.files} files from {args.archive}"
        + (f"; applied {len(pending)} newer migrations" if pending else "")
        + (f"; secrets written to {args.secrets_to}" if restored.secrets is not None and args.secrets_to else "")
    )
    return 0


def run_migrate_check() -> int:
    from server.core import db

    pending = asyncio.run(db.pending_migrations())
    for app, migration_id, description in pending:
        print(f"pending: {app} {migration_id} {description}")
    print(f"{len(pending)} pending migrations" if pending else "The database is up to date.")
    return 1 if pending else 0
