"""Helpers of the session's stack for tests/conftest.py and the tests (re-exported there): SQL on the session's
PostgreSQL (one kept connection), emptying the tables between tests, and the arq queue and worker processes."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

TABLES = (
    "training_runs, leaderboard_configs, scores, dataset_examples, datasets, models, validations, examples, "
    "contexts, rounds, task_owners, tasks, api_tokens, users, "
    # No foreign keys reach the outbox of domain events: its once keys (badges) would outlive the rows they name.
    "domain_events"
)


class _Database:
    """One connection to the session's PostgreSQL (os.environ["DATABASE_URL"]) kept on an event loop of its own
    thread, so that run_sql costs a round trip, not a new connection and a new event loop each call (thousands of
    calls a session), and works from any thread (the browser tests call it while Playwright's loop runs on theirs).
    A connection that died (PostgreSQL restarted by a test) is replaced, and the statement sent again once."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connection: Any = None
        self._url = ""

    def run(self, use) -> Any:
        """The result of ``await use(connection)``."""
        import threading

        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(target=self._loop.run_forever, name="tests-run-sql", daemon=True).start()
            return asyncio.run_coroutine_threadsafe(self._call(use), self._loop).result()

    async def _call(self, use) -> Any:
        import asyncpg

        url = os.environ["DATABASE_URL"]
        reused = self._connection is not None and not self._connection.is_closed() and self._url == url
        if not reused:
            await self._close()
            self._connection, self._url = await asyncpg.connect(url), url
        try:
            return await use(self._connection)
        except (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.InterfaceError, OSError):
            if not reused or not self._connection.is_closed():
                raise
            self._connection = await asyncpg.connect(url)
            return await use(self._connection)
        finally:
            # A failed statement of a multi-statement BEGIN ... COMMIT leaves its transaction open: end it.
            if self._connection is not None and not self._connection.is_closed() and self._connection.is_in_transaction():
                await self._connection.execute("ROLLBACK")

    async def _close(self) -> None:
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()
        self._connection = None


_DATABASE = _Database()


def run_sql(sql: str, *args: Any) -> list[dict]:
    async def fetch(connection):
        return [dict(r) for r in await connection.fetch(sql, *args)]

    return _DATABASE.run(fetch)


def clear_job_queue() -> None:
    """Jobs a previous test left queued would act on this test's rows (ids restart at 1). A running job's own key
    stays (arq deletes it when the job ends), so that `wait_for_running_jobs` can name the job if it never ends."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        running = {key[len(b"arq:in-progress:") :] for key in client.scan_iter(match="arq:in-progress:*")}
        stale = list(client.scan_iter(match="arq:retry:*"))
        stale += [key for key in client.scan_iter(match="arq:job:*") if key[len(b"arq:job:") :] not in running]
        client.delete("arq:queue", *stale)
    finally:
        client.close()


# How long the next test waits for the jobs a previous one left running: longer than any job a test starts (a real
# model's deploy and evaluation, bounded by the session worker's MODEL_LOAD_TIMEOUT_S + SMOKE_TEST_TIMEOUT_S +
# EVALUATION_BATCH_TIMEOUT_S per batch), and than a killed worker's mark lives (its heartbeat's TTL, 20 s, then the
# next run of the worker's release cron).
RUNNING_JOBS_TIMEOUT_S = 300.0


def running_jobs(client) -> dict[str, str]:
    """{job id: "function(args)"} of the jobs marked in progress (the workers' crons left out)."""
    from arq.jobs import deserialize_job

    jobs = {}
    for key in client.scan_iter(match="arq:in-progress:*"):
        job_id = key[len(b"arq:in-progress:") :]
        if job_id.startswith(b"cron:"):
            continue
        try:
            data = client.get(b"arq:job:" + job_id)
            job = deserialize_job(data) if data else None
            jobs[job_id.decode()] = f"{job.function}{tuple(job.args)}" if job else "(job data gone)"
        except Exception as exc:  # noqa: BLE001 — only for the message: the job's id is listed anyway
            jobs[job_id.decode()] = f"(unreadable: {exc})"
    return jobs


def wait_for_running_jobs(timeout_s: float = RUNNING_JOBS_TIMEOUT_S) -> None:
    """A job a previous test started (a deploy, an evaluation) would act on this test's rows once they take its ids:
    let it end first. A killed worker's mark stays until a live worker's cron releases it (workers/liveness.py).
    Fails the test, naming the jobs, if they are still running after `timeout_s`."""
    import time

    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            running = running_jobs(client)
            if not running:
                return
            if time.monotonic() >= deadline:
                pytest.fail(
                    f"jobs a previous test left were still running after {timeout_s:g} s: "
                    + "; ".join(f"{job_id} {what}" for job_id, what in sorted(running.items()))
                )
            time.sleep(0.1)
    finally:
        client.close()


def live_workers(stack) -> list:
    """The Popen of every worker process of the stack that is still running."""
    workers = [stack.group.get(name) for name in stack.group.names if name.startswith("worker")]
    return [worker for worker in workers if worker.poll() is None]


# The workers that serve the session's worker metrics port: LocalStack's first, then each one started in its place.
METRICS_WORKERS = {"worker-0"}


def start_worker(stack, env: dict[str, str] | None = None, name: str = "", metrics_url: str = "") -> Path:
    """Starts another worker on the stack's services, with `env` added to the stack's; returns its log file. With
    `metrics_url` (one of stack.worker_metrics_urls) it serves its metrics where the session's worker did; so does a
    worker started when none is alive (it replaces the session's: a later test scrapes the session's metrics port)."""
    import sys
    import uuid
    from urllib.parse import urlparse

    if not metrics_url and not live_workers(stack) and stack.worker_metrics_urls:
        metrics_url = stack.worker_metrics_urls[0]
    name = name or f"worker-{uuid.uuid4().hex[:6]}"
    if metrics_url:
        METRICS_WORKERS.add(name)
    log_path = stack.logs / f"{name}.log"
    extra = {"WORKER_METRICS_PORT": str(urlparse(metrics_url).port)} if metrics_url else {}
    stack.group.spawn(
        name, [sys.executable, "-m", "server.cli", "worker"], env={**stack.env, **extra, **(env or {})}, log_path=log_path
    )
    return log_path


def stop_workers(stack, names: set[str] | None = None) -> None:
    """Stops the stack's live workers (or those named) the way an orchestrator would: SIGTERM, then SIGKILL for one
    still busy after 30 s (its job runs again: the liveness cron releases it). Waits for each to exit."""
    import signal
    import subprocess

    for name in list(stack.group.names):
        worker = stack.group.get(name)
        if not name.startswith("worker") or worker.poll() is not None or (names is not None and name not in names):
            continue
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=30)


def restore_session_worker(stack) -> None:
    """One live worker serving the session's metrics port, as the session started: extra workers are stopped, and if
    none serves the port any more, the stack's workers are replaced by one that does."""
    alive = [name for name in stack.group.names if name.startswith("worker") and stack.group.get(name).poll() is None]
    serving = [name for name in alive if name in METRICS_WORKERS]
    if serving:
        stop_workers(stack, set(alive) - {serving[0]})
    else:
        stop_workers(stack)
        start_worker(stack)


@contextmanager
def worker_with(stack, env: dict[str, str]) -> Iterator[Path]:
    """For the block, the stack's jobs run on one worker started with `env` added (e.g. shorter timeouts than the
    session's worker, whose generous ones suit real models loaded on a busy machine); yields its log file. The
    session's settings come back after the block, on a worker serving the session's first metrics port."""
    import uuid

    clear_job_queue()
    wait_for_running_jobs()
    stop_workers(stack)
    name = f"worker-{uuid.uuid4().hex[:6]}"
    log_path = start_worker(stack, env, name=name)
    try:
        yield log_path
    finally:
        clear_job_queue()
        wait_for_running_jobs()
        stop_workers(stack)
        start_worker(stack, metrics_url=stack.worker_metrics_urls[0] if stack.worker_metrics_urls else "")


def clear_rate_limits() -> None:
    """Rate-limit counters are keyed by user id, and ids restart at 1 with every test's empty_tables()."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        stale = list(client.scan_iter(match="dynabench:limit:*"))
        if stale:
            client.delete(*stale)
    finally:
        client.close()


_EMPTY_TABLES_SQL: dict[str, str] = {}  # DATABASE_URL -> the statement empty_tables() runs there


def empty_tables() -> None:
    """What `TRUNCATE {TABLES} RESTART IDENTITY CASCADE` does, in a few milliseconds instead of a few hundred: every
    table of TABLES and every table that references one (as CASCADE finds them) loses its rows, and the sequences they
    own start again (ids restart at 1). TRUNCATE makes new files for each of ~40 tables and their indexes, per test;
    DELETE on the few rows a test leaves is far cheaper. The tables are locked first, as TRUNCATE does, so a transaction
    still open (a worker's cron) ends before and cannot write after; foreign keys are not checked, as with TRUNCATE
    (session_replication_role), and no table has user triggers to fire (TRUNCATE fires none either)."""
    url = os.environ["DATABASE_URL"]

    async def empty(connection):
        if url not in _EMPTY_TABLES_SQL:
            _EMPTY_TABLES_SQL[url] = await _empty_tables_sql(connection)
        await connection.execute(_EMPTY_TABLES_SQL[url])

    _DATABASE.run(empty)


async def _empty_tables_sql(connection) -> str:
    listed = [name.strip() for name in TABLES.split(",")]
    tables = await connection.fetch(
        """
        WITH RECURSIVE cascaded(oid) AS (
            SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[])
            UNION
            SELECT con.conrelid FROM pg_constraint con JOIN cascaded ON con.confrelid = cascaded.oid WHERE con.contype = 'f'
        )
        SELECT oid, oid::regclass::text AS name FROM cascaded ORDER BY name""",
        listed,
    )
    assert len(tables) >= len(listed), f"tables missing from the database: {listed}"
    sequences = await connection.fetch(
        """
        SELECT DISTINCT s.oid FROM pg_class s
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.refclassid = 'pg_class'::regclass
        WHERE s.relkind = 'S' AND d.deptype IN ('a', 'i') AND d.refobjid = ANY($1::oid[])""",
        [t["oid"] for t in tables],
    )
    names = ", ".join(t["name"] for t in tables)
    oids = ",".join(str(s["oid"]) for s in sequences)
    return (
        "BEGIN; SET LOCAL session_replication_role = replica; "
        f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE; "
        + " ".join(f"DELETE FROM {t['name']};" for t in tables)
        + " SELECT setval(q.seqrelid, q.seqstart, false) FROM pg_sequence q"
        f" WHERE q.seqrelid = ANY('{{{oids}}}'::oid[]) AND pg_sequence_last_value(q.seqrelid) IS NOT NULL; COMMIT;"
    )
