"""Session-wide real services for the test suite: PostgreSQL, Redis, two Tritons, the worker, the API.

Nothing is mocked. Every test that uses `api` starts from empty tables (emptied in place, much faster than a
database per test, and the API and worker processes stay up for the whole session).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.stack_helpers import (  # re-exported: tests import these from tests.conftest
    TABLES,
    clear_job_queue,
    clear_rate_limits,
    empty_tables,
    live_workers,
    run_sql,
    running_jobs,
    start_worker,
    stop_workers,
    wait_for_running_jobs,
    worker_with,
)

__all__ = [
    "TABLES",
    "clear_job_queue",
    "clear_rate_limits",
    "empty_tables",
    "live_workers",
    "run_sql",
    "running_jobs",
    "start_worker",
    "stop_workers",
    "wait_for_running_jobs",
    "worker_with",
]

pytest_plugins = ["tests.file_timing", "tests.run_dirs"]
ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("DYNABENCH_SHARED_DATA") or ROOT.parent / "shared" / "data")
os.environ.setdefault("PICCOLO_CONF", "server.core.piccolo_conf")
# The test files that take longest (mostly waiting on real services: hostile models' timeouts, a Triton outage, real
# models deployed and evaluated, chromium) start first when pytest-xdist spreads the files over several processes
# (scripts/test.sh: --dist loadfile --no-loadscope-reorder), so that no long file starts last and runs alone at the end.
# The rest keep their order. A file missing here only starts later.
SLOW_FILES_FIRST: tuple[str, ...] = (
    # The first needs no target model: on a clean clone it runs while scripts/test.sh still builds them (the build
    # has the cores to itself meanwhile: the files after it wait for it).
    "tests/security/test_hostile_models.py",  # models that never answer wait out the worker's (short) timeouts
    "tests/api/test_models.py",  # real models deployed and evaluated on real datasets
    "tests/api/test_training.py",
    "tests/faults/test_worker_killed.py",
    "tests/faults/test_outages.py",  # Triton stopped, Redis and PostgreSQL restarted
    "tests/modelbuild/test_modelbuild_triton.py",  # trains three models from the seed data (CPU, beside waiting files)
    "tests/api/test_scoring_datasets.py",
    "tests/test_up.py",
    "tests/api/test_contamination.py",
    "tests/scale/test_query_plans.py",
    "tests/fuzz/test_accounts_fuzz.py",
    "tests/api/test_examples_behaviour.py",
    "tests/browser/test_accessibility.py",
    "tests/api/test_submission_targets.py",
    "tests/api/test_model_pipeline.py",
    "tests/browser/test_annotate_writing.py",
    "tests/browser/test_models_upload_progress.py",
    "tests/api/test_gold_unseen.py",
    "tests/api/test_notifications.py",
    "tests/runtime/test_sandbox.py",
    "tests/runtime/test_local_triton.py",
    "tests/modelbuild/test_offline_export.py",
    "tests/faults/test_outbox_under_chaos.py",
    "tests/api/test_submission_residency.py",
    "tests/faults/test_replicas.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker (a plain run keeps the collection order): SLOW_FILES_FIRST, then the rest. (Unit tests first,
    during the test models' build, slowed the build down more than they saved.)"""
    if not hasattr(config, "workerinput"):
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
    # An uploaded classifier's train.py (tests/api/test_training_submissions.py, tests/security/test_hostile_training.py):
    # the hostile one that never ends waits this out, the one that writes without end fills this much.
    "SUBMISSION_TRAINING_TIMEOUT_S": "45",
    "SUBMISSION_TRAINING_OUTPUT_MB": "64",
    "EVALUATION_BATCH_TIMEOUT_S": "60",
    # The worker's once-a-minute sweeps (round targets kept loaded, datasets' contamination checks, ...) run every 10 s.
    "SWEEP_INTERVAL_S": "10",
    # A killed worker's jobs run again after its heartbeat expires: 10 s instead of 20 s (workers/liveness.py).
    "WORKER_HEARTBEAT_TTL_S": "10",
    # A stub the kernel killed (the hostile memory bomb) fails its load after this rather than production's 30 s.
    "SANDBOX_STUB_TIMEOUT_S": "15",
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
    # The worker's torch work (retraining, contamination embeddings) uses one thread: the machine is busy with the rest.
    "TORCH_THREADS": "1",
    # Idle OpenMP threads (torch in the worker and in Triton's classifiers) sleep instead of spinning on the shared cores
    # (scripts/test.sh sets it for the whole run; bench/omp_wait.py measures why).
    "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE"),
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


def target_triton(stack, network_timeout: float = 300):
    """A plain tritonclient of the target Triton, sending the key its model-control API requires."""
    import tritonclient.http as triton_http

    from server.core.triton_clients import ControlKey

    client = triton_http.InferenceServerClient(stack.env["TRITON_URL"], network_timeout=network_timeout)
    client.register_plugin(ControlKey(stack.env["TRITON_CONTROL_KEY"]))
    return client


@contextmanager
def target_triton_stopped(stack, kill: Callable[[], None] | None = None) -> Iterator[None]:
    """The target Triton stopped for the block (or crashed: `kill` first, e.g. a SIGKILL), then started again with
    every model it served before (explicit model control starts empty): the operator's models too, which the tests
    after this one on the stack expect."""
    client = target_triton(stack)
    served = sorted(m["name"] for m in client.get_model_repository_index() if m.get("state") == "READY")
    client.close()
    if kill is not None:
        kill()
    stack.triton.stop()
    try:
        yield
    finally:
        stack.triton.start()
        load_models(stack, served)


def load_models(stack, names: Iterable[str]) -> None:
    """Load the models into the target Triton side by side (a client each): a classifier's Python stub spends seconds
    importing torch, and one load after another left a core idle after every restart."""
    from concurrent.futures import ThreadPoolExecutor

    def load(name: str) -> None:
        client = target_triton(stack)
        try:
            client.load_model(name)
        finally:
            client.close()

    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(load, names))


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


def build_test_models(tasks: list[str] | None = None) -> list:
    """Builds (or finds up to date) the fast-profile target models in MODEL_CACHE (`tasks`: those only); a file lock per
    model serializes the builds of concurrent processes (scripts/test.sh starts two in the background: the classifiers,
    and beside them the generative demo, which trains on one thread)."""
    from server.modelbuild import build_models

    assert all(p.exists() for p in TRAINING_DATA.values()), f"real data missing under {SHARED_DATA}"
    # Trained as `dynabench build-models` trains them, on every core whatever the session's TORCH_THREADS: the thread
    # count changes the weights, and tests/browser/test_offline_verdict.py's agreement bar (98%) holds for these (the
    # same recipe trained on one thread gave 97%).
    threads = os.environ.pop("TORCH_THREADS", None)
    try:
        data = {task: path for task, path in TRAINING_DATA.items() if tasks is None or task in tasks}
        return build_models(MODEL_CACHE, tasks=tasks, profile="fast", data=data)
    finally:
        if threads is not None:
            os.environ["TORCH_THREADS"] = threads


# What scripts/test.sh builds in its first background build; the generative demo (chat_demo) is its second, the longest.
CLASSIFIER_TASKS = ["sentiment", "nli", "hate_speech", "qa"]


def _serve_models(stack, built: list) -> dict[str, str]:
    """Task code -> Triton model name, each copied into the stack's model repository and loaded in its target Triton."""
    import shutil

    repository: Path = stack.model_repository
    names = {}
    for model in built:
        destination = repository / model.name
        if not destination.exists():
            shutil.copytree(model.path, destination)
        names[model.task] = model.name
    load_models(stack, [model.name for model in built])
    return names


@pytest.fixture(scope="session")
def classifier_models(stack) -> dict[str, str]:
    """The built-in classifiers and QA model loaded (task code -> Triton model name), without waiting for the generative
    demo's build: a file that needs no generative model starts up to a minute sooner on a clean clone."""
    return _serve_models(stack, build_test_models(CLASSIFIER_TASKS))


@pytest.fixture(scope="session")
def target_models(stack, classifier_models) -> dict[str, str]:
    """Every built-in target model loaded, the generative demo (chat_demo) too: task code -> Triton model name."""
    return {**classifier_models, **_serve_models(stack, build_test_models(["chat_demo"]))}


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
