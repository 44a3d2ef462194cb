"""How long a backup and a restore take at production size: the recovery time docs/deploy.md can promise.

    .venv/bin/python bench/backup_restore.py [--examples 1000000] [--model-repository DIR]

Starts a stack (bench/common.py), writes a production-sized data set into it (bench/seed_scale.py: `--examples`
examples, about as many votes, 10,000 users, 300 models), then runs the commands an operator runs, as separate
processes: `dynabench backup --data-dir` against the running stack, and `dynabench restore ARCHIVE --data-dir NEW`
into an empty directory (a new PostgreSQL cluster: verify every member's checksum, pg_restore, recount every table
and compare its count and content hash with the manifest, write the files). Prints the database's size, the
archive's, and each command's wall time and CPU (its own and its children's: pg_dump, pg_restore, PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bench.common import ROOT, start_stack
from bench.seed_scale import seed

SERVICE_ENV = ("DATABASE_URL", "REDIS_URL", "MODEL_STORE_DIR", "TARGET_MODEL_REPOSITORY", "JWT_SECRET")


def timed_cli(*args: str | Path) -> tuple[float, float, str]:
    """One CLI command as an operator runs it (services from --data-dir only): wall seconds, CPU seconds, output."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_ENV}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", *map(str, args)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"`dynabench {args[0]}` failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


async def database_size(dsn: str) -> tuple[int, int]:
    connection = await asyncpg.connect(dsn)
    try:
        size = await connection.fetchval("SELECT pg_database_size(current_database())")
        examples = await connection.fetchval("SELECT count(*) FROM examples")
        return size, examples
    finally:
        await connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=1_000_000)
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    args = parser.parse_args()
    stack = start_stack(args.model_repository, args.profile)
    work = Path(tempfile.mkdtemp(prefix="dynabench-backup-bench-"))
    archive = work / "stack.tar"
    try:
        seeded = asyncio.run(seed(stack.env["DATABASE_URL"], examples=args.examples))
        size, examples = asyncio.run(database_size(stack.env["DATABASE_URL"]))
        print(f"Seeded {examples:,} examples in {seeded.seconds:.0f} s; database {size / 2**20:,.0f} MiB", flush=True)
        backup = timed_cli("backup", "--data-dir", stack.data_dir, "--output", archive)
    finally:
        stack.stop()
    restore = timed_cli("restore", archive, "--data-dir", work / "restored")
    print(f"\nDatabase: {examples:,} examples, {size / 2**20:,.0f} MiB; archive {archive.stat().st_size / 2**20:,.0f} MiB\n")
    print("| command | wall (s) | CPU (s, with children) |\n|---|---|---|")
    print(f"| dynabench backup (while the stack serves) | {backup[0]:.1f} | {backup[1]:.1f} |")
    print(f"| dynabench restore into an empty data directory | {restore[0]:.1f} | {restore[1]:.1f} |")
    print(f"\n{restore[2]}")
    subprocess.run(["rm", "-rf", str(work)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
