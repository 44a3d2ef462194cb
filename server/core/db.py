"""Database lifecycle: connection pool, readiness, migrations."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os

os.environ.setdefault("PICCOLO_CONF", "server.core.piccolo_conf")

import asyncpg
from piccolo.engine import engine_finder

MIGRATION_LOCK_KEY = 0x0D1A_BE4C  # pg_advisory_lock key: one migrator at a time across processes


class DatabaseUnavailable(RuntimeError):
    pass


def database_url() -> str:
    return os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/dynabench")


async def wait_for_database(url: str | None = None, timeout: float = 30.0) -> None:
    """Wait until PostgreSQL accepts connections, or fail with a message that says where we looked."""
    url = url or database_url()
    deadline = asyncio.get_running_loop().time() + timeout
    last_error: Exception | None = None
    while asyncio.get_running_loop().time() < deadline:
        try:
            connection = await asyncpg.connect(url, timeout=5)
            await connection.close()
            return
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            last_error = exc
            await asyncio.sleep(0.5)
    raise DatabaseUnavailable(f"PostgreSQL is not reachable at {_redact(url)}: {last_error}")


def _redact(url: str) -> str:
    # Never print a password that may be in DATABASE_URL.
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in credentials else f"{scheme}://{user}@{host}"
    return url


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Release without asyncpg's default RESET ALL round trip: our pooled sessions never LISTEN, take
    session-level advisory locks (transaction-level ones end with the transaction) or SET anything, and
    asyncpg still rolls back a transaction left open."""


async def start_pool(max_size: int = 10) -> None:
    await engine_finder().start_connection_pool(min_size=1, max_size=max_size, reset=_keep_session)


async def close_pool() -> None:
    with contextlib.suppress(Exception):
        await engine_finder().close_connection_pool()


async def migrate(verbose: bool = False) -> None:
    """Apply every Piccolo app's pending migrations, serialized by an advisory lock."""
    from piccolo.apps.migrations.commands.forwards import run_forwards

    url = database_url()
    await wait_for_database(url)
    lock = await asyncpg.connect(url)
    try:
        await lock.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
        sink = io.StringIO()
        # Piccolo prints progress; keep it for `dynabench migrate -v` and for error reports.
        with contextlib.redirect_stdout(sink) if not verbose else contextlib.nullcontext():
            result = await run_forwards("all")
        if not result.success:
            raise RuntimeError(f"Migrations failed: {result.message}\n{sink.getvalue()[-2000:]}")
    finally:
        await lock.close()


async def pending_migrations() -> list[tuple[str, str, str]]:
    """(app, migration id, description) of every migration not applied yet, oldest first per app."""
    from piccolo.apps.migrations.commands.check import CheckMigrationManager

    await wait_for_database(database_url())
    statuses = await CheckMigrationManager("all").get_migration_statuses()
    return [(s.app_name, s.migration_id, s.description) for s in statuses if not s.has_ran]


def transaction():
    """`async with db.transaction():` — statements run through server.core.sql inside it join it."""
    return engine_finder().transaction()
