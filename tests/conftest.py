"""Session-wide real services for the test suite: PostgreSQL, Redis, two Tritons, the worker, the API.

Nothing is mocked. Every test that uses `api` starts from empty tables (emptied in place, much faster than a
database per test, and the API and worker processes stay up for the whole session).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DYNABENCH_SHARED_DATA") or ROOT.parent / "shared" / "data")
os.environ.setdefault("PICCOLO_CONF", "server.core.piccolo_conf")
RUN_DIR_PREFIX = "dynabench-tests-"
KEEP_FINISHED_RUNS = 2  # the folders (stack logs) of the last runs that ended stay for a look


def pytest_configure(config: pytest.Config) -> None:
    """Each run gets a temporary root of its own, not pytest's shared numbered folders under
    /tmp/pytest-of-<user>: their clean-up at the start of one run deleted the live stack folders (database,
    sockets) of another run on the same machine."""
    if config.option.basetemp is None:
        runs = Path(tempfile.gettempdir())
        _remove_finished_runs(runs)
        config.option.basetemp = str(runs / f"{RUN_DIR_PREFIX}{os.getpid()}")


def _remove_finished_runs(runs: Path) -> None:
    finished = []
    for folder in runs.glob(f"{RUN_DIR_PREFIX}*"):
        pid = folder.name[len(RUN_DIR_PREFIX) :]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            finished.append(folder)
    finished.sort(key=lambda folder: folder.stat().st_mtime, reverse=True)
    for folder in finished[KEEP_FINISHED_RUNS:]:
        shutil.rmtree(folder, ignore_errors=True)


# The test files that take longest (mostly waiting on real services: hostile models' timeouts, a Triton outage, real
# models deployed and evaluated, chromium) start first when pytest-xdist spreads the files over several processes
# (scripts/test.sh: --dist loadfile --no-loadscope-reorder), so that no long file starts last and runs alone at the end.
# The rest keep their order. A file missing here only starts later.
SLOW_FILES_FIRST: tuple[str, ...] = (
    "tests/security/test_hostile_models.py",  # models that never answer: the worker's timeouts, ~4 min
    "tests/api/test_models.py",  # real models deployed and evaluated on real datasets
    "tests/faults/test_outages.py",  # Triton stopped for a minute, Redis and PostgreSQL restarted
    "tests/faults/test_worker_killed.py",
    "tests/modelbuild/test_modelbuild_triton.py",  # trains three models from the seed data
    "tests/modelbuild/test_offline_export.py",
    "tests/api/test_contamination.py",
    "tests/api/test_training.py",
    "tests/api/test_examples_behaviour.py",
    "tests/api/test_gold_unseen.py",
    "tests/api/test_model_pipeline.py",
    "tests/api/test_submission_residency.py",
    "tests/test_up.py",
    "tests/runtime/test_sandbox.py",
    "tests/runtime/test_local_services.py",
    "tests/faults/test_outbox_under_chaos.py",
    "tests/faults/test_replicas.py",
    "tests/api/test_notifications.py",
    "tests/api/test_scoring_datasets.py",
    "tests/api/test_submission_targets.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):  # only in an xdist worker: a plain run keeps the collection order
        return
    rank = {path: i for i, path in enumerate(SLOW_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


# The whole suite talks to one stack from 127.0.0.1, so the per-address (and per-account) rate limits are raised for
# the session (the API processes inherit os.environ); tests of the limits start an API process with low ones.
SESSION_LIMITS = {
    "SIGNUPS_PER_HOUR_PER_ADDRESS": "1000000",
    "TASKS_PER_DAY": "1000000",
    "TASKS_PER_DAY_PER_ADDRESS": "1000000",
    "UPLOADS_PER_DAY": "1000000",
    "UPLOADS_PER_DAY_PER_ADDRESS": "1000000",
    "SUBMISSIONS_PER_MINUTE": "1000000",
    "SUBMISSIONS_PER_MINUTE_PER_ADDRESS": "1000000",
    "LOGIN_FAILURES_PER_ADDRESS": "1000000",
    # Account recovery (tests/api/test_password_reset.py keeps the per-account reset limit, 3 an hour).
    "PASSWORD_RESETS_PER_HOUR_PER_ADDRESS": "1000000",
    "EMAIL_CHANGES_PER_HOUR": "1000000",
    "EMAIL_CHANGES_PER_HOUR_PER_ADDRESS": "1000000",
    # The worker gives up on a model's code sooner than in production (600 s / 120 s): hostile models
    # that never return wait these out (tests/security/test_hostile_models.py).
    "MODEL_LOAD_TIMEOUT_S": "90",
    "SMOKE_TEST_TIMEOUT_S": "30",
    "EVALUATION_BATCH_TIMEOUT_S": "60",
    # Folders of unloaded models' files go soon (tests/api/test_submission_residency.py watches them go).
    "SANDBOX_SCRATCH_SWEEP_S": "5",
    "SANDBOX_SCRATCH_GRACE_S": "20",
    # Webhooks reach the tests' receiver on 127.0.0.1 (plain http), retry after 0.2 s, 0.4 s, and a hook is disabled
    # after two failed deliveries of three attempts each (tests/api/test_webhooks*.py).
    "WEBHOOKS_ALLOW_PRIVATE": "1",
    "WEBHOOK_RETRY_BASE_S": "0.2",
    "WEBHOOK_MAX_ATTEMPTS": "3",
    "WEBHOOK_DISABLE_AFTER": "2",
    "WEBHOOK_TIMEOUT_S": "5",
}


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    """The same LocalStack as `dynabench up`, without demo data, with an initially empty model repository."""
    from server.cli.local_stack import LocalStack

    os.environ.update(SESSION_LIMITS)
    # A real SMTP server (aiosmtpd) that the API and the worker send mail to (tests/api/smtp_helpers.py).
    from tests.api.smtp_helpers import start_session_smtp

    os.environ.update(start_session_smtp())

    base = tmp_path_factory.mktemp("stack")
    (base / "model_repository").mkdir()
    # JSON logs with an access log line per request: tests/api/test_observability.py reads them.
    local = LocalStack(
        base,
        model_repository=base / "model_repository",
        load_models=False,
        seed=False,
        durable=False,
        log_format="json",
        access_log=True,
    )
    try:
        local.start()
        _RUNNING.append(local)
        yield local
    finally:
        _RUNNING.clear()
        local.stop()


_RUNNING: list = []  # the session's stack once started (unit-test modules never start one)


@pytest.fixture(scope="module", autouse=True)
def fresh_submissions_triton():
    """Each module starts with no submission loaded: tables are emptied between tests, so the models earlier
    modules uploaded are orphans, and together they would outgrow the sandbox's memory limit (its cgroup's
    OOM killer then takes a live model's process)."""
    if _RUNNING and _RUNNING[0].env.get("TRITON_SUBMISSIONS_STATS_URL"):
        triton = submissions_triton(_RUNNING[0])
        for name in loaded_submissions(_RUNNING[0]):
            triton.unload_model(name)
    yield


TABLES = (
    "training_runs, leaderboard_configs, scores, dataset_examples, datasets, models, validations, examples, "
    "contexts, rounds, task_owners, tasks, api_tokens, users, "
    # No foreign keys reach the outbox of domain events: its once keys (badges) would outlive the rows they name.
    "domain_events"
)


def target_triton(stack, network_timeout: float = 300):
    """A plain tritonclient of the target Triton, sending the key its model-control API requires."""
    import tritonclient.http as triton_http

    from server.core.triton_clients import ControlKey

    client = triton_http.InferenceServerClient(stack.env["TRITON_URL"], network_timeout=network_timeout)
    client.register_plugin(ControlKey(stack.env["TRITON_CONTROL_KEY"]))
    return client


class SyncTriton:
    """tritonclient's asyncio client driven synchronously, for the submissions Triton, which is reachable
    only through the sandbox's unix socket: ``SyncTriton(url, key).is_model_ready(name)``."""

    def __init__(self, url: str, control_key: str = "") -> None:
        self.url, self.control_key = url, control_key

    def __getattr__(self, name: str):
        from server.core.triton_clients import triton_client

        def call(*args, **kwargs):
            async def go():
                client = triton_client(self.url, self.control_key)
                try:
                    return await getattr(client, name)(*args, **kwargs)
                finally:
                    await client.close()

            return asyncio.run(go())

        return call


def submissions_triton(stack, with_key: bool = True) -> SyncTriton:
    return SyncTriton(stack.env["TRITON_SUBMISSIONS_URL"], stack.env["TRITON_CONTROL_KEY"] if with_key else "")


def loaded_submissions(stack) -> dict[str, int]:
    """{Triton name: resident bytes} of the submissions whose processes run in the sandbox, as its agent
    lists them (Triton's repository index omits models loaded with their files in the request)."""
    from server.core.triton_clients import agent_request

    answer = asyncio.run(
        agent_request(stack.env["TRITON_SUBMISSIONS_STATS_URL"], "/models", control_key=stack.env["TRITON_CONTROL_KEY"])
    )
    return dict(answer["models"])


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


def seed_builtin_tasks() -> None:
    from server.tasks.builtin import seed_builtin_tasks as seed

    asyncio.run(seed())


class GraphQLClient:
    def __init__(self, url: str):
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=60)

    def raw(self, query: str, variables: dict | None = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)

    def __call__(self, query: str, variables: dict | None = None, token: str | None = None) -> dict:
        response = self.raw(query, variables, token)
        assert response.status_code == 200, response.text
        body = response.json()
        assert not body.get("errors"), body["errors"]
        return body["data"]

    def errors(self, query: str, variables: dict | None = None, token: str | None = None) -> list[dict]:
        response = self.raw(query, variables, token)
        assert response.status_code in (200, 400), response.text
        return response.json().get("errors") or []

    def sign_up(self, username: str, password: str = "correct horse battery") -> str:
        data = self(
            "mutation($i: SignUpInput!) { signUp(input: $i) { __typename ... on AuthPayload { token } ... on Error { message } } }",
            {"i": {"username": username, "password": password}},
        )
        assert data["signUp"]["__typename"] == "AuthPayload", data
        return data["signUp"]["token"]


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


def start_worker(stack, env: dict[str, str] | None = None, name: str = "", metrics_url: str = "") -> Path:
    """Starts another worker on the stack's services, with `env` added to the stack's; returns its log file. With
    `metrics_url` (one of stack.worker_metrics_urls) it serves its metrics where the session's worker did."""
    import sys
    import uuid
    from urllib.parse import urlparse

    name = name or f"worker-{uuid.uuid4().hex[:6]}"
    log_path = stack.logs / f"{name}.log"
    extra = {"WORKER_METRICS_PORT": str(urlparse(metrics_url).port)} if metrics_url else {}
    stack.group.spawn(
        name, [sys.executable, "-m", "server.cli", "worker"], env={**stack.env, **extra, **(env or {})}, log_path=log_path
    )
    return log_path


def stop_workers(stack) -> None:
    """Stops every live worker of the stack the way an orchestrator would (SIGTERM), and waits for each to exit."""
    import signal

    for worker in live_workers(stack):
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)


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


@pytest.fixture
def api(stack) -> GraphQLClient:
    clear_job_queue()
    wait_for_running_jobs()
    clear_job_queue()  # what the jobs that were running queued next
    clear_rate_limits()
    empty_tables()
    client = GraphQLClient(stack.api_url)
    yield client
    client.http.close()


@pytest.fixture
def admin_token(api) -> str:
    token = api.sign_up("root-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'root-admin'")
    return token


def dumps(value: Any) -> str:
    return json.dumps(value)


# Fast-profile target models trained from the real datasets in ../shared/data (design notes: tests may
# read them). Built once and cached between sessions; the build reuses a cache key, so a changed
# recipe or dataset rebuilds.
MODEL_CACHE = Path(os.environ.get("DYNABENCH_TEST_MODEL_CACHE", ROOT / ".dynabench-test-cache" / "models"))
TRAINING_DATA = {
    "sentiment": SHARED_DATA / "sst2" / "train.csv",
    "nli": SHARED_DATA / "nli" / "mnli-matched-dev.jsonl",
    "hate_speech": SHARED_DATA / "hatemoji" / "train.csv",
}


def build_test_models() -> list:
    """Builds (or finds up to date) the fast-profile target models in MODEL_CACHE; a file lock serializes the builds
    of concurrent processes (scripts/test.sh starts one in the background while the checks before pytest run)."""
    from server.modelbuild import build_models

    assert all(p.exists() for p in TRAINING_DATA.values()), f"real data missing under {SHARED_DATA}"
    return build_models(MODEL_CACHE, profile="fast", data=TRAINING_DATA)


@pytest.fixture(scope="session")
def target_models(stack) -> dict[str, str]:
    """Task code -> Triton model name, each loaded in the stack's target Triton."""
    import shutil

    built = build_test_models()
    repository: Path = stack.model_repository
    client = target_triton(stack)
    names = {}
    for model in built:
        destination = repository / model.name
        if not destination.exists():
            shutil.copytree(model.path, destination)
        client.load_model(model.name)
        names[model.task] = model.name
    client.close()
    return names


COMMUNITY_MODEL = "community_sentiment"


@pytest.fixture(scope="session")
def community_model(stack, target_models) -> str:
    """A real sentiment model in the target Triton that no built-in task owns (an operator's model): any task
    owner may name it as a round's target. A copy of the built sentiment model under another name."""
    import shutil

    destination = stack.model_repository / COMMUNITY_MODEL
    if not destination.exists():
        shutil.copytree(MODEL_CACHE / target_models["sentiment"], destination)
        config = destination / "config.pbtxt"
        config.write_text(config.read_text().replace(f'name: "{target_models["sentiment"]}"', f'name: "{COMMUNITY_MODEL}"'))
    client = target_triton(stack)
    client.load_model(COMMUNITY_MODEL)
    client.close()
    return COMMUNITY_MODEL
