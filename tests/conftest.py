"""Session-wide real services for the test suite: PostgreSQL, Redis, two Tritons, the worker, the API.

Nothing is mocked. Every test that uses `api` starts from empty tables (TRUNCATE is much faster
than a database per test, and the API and worker processes stay up for the whole session).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
os.environ.setdefault("PICCOLO_CONF", "server.piccolo_conf")


@dataclass
class Stack:
    env: dict[str, str]
    api_url: str
    group: Any
    services: dict[str, Any] = field(default_factory=dict)


def _wait_for(url: str, group, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        died = group.first_exited()
        if died:
            raise RuntimeError(f"{died[0]} exited with code {died[1]} during start-up")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} never became healthy")


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Stack:
    from server.runtime import LocalPostgres, LocalRedis, LocalTriton, ServiceGroup, free_port, prepare_triton_runtime

    base = tmp_path_factory.mktemp("stack")
    group = ServiceGroup(stop_timeout=10)
    try:
        postgres = group.add("postgres", LocalPostgres(base / "postgres"))
        redis = group.add("redis", LocalRedis(base / "redis"))
        runtime = prepare_triton_runtime(base / "triton_runtime")
        repository = base / "model_repository"
        repository.mkdir()
        triton = group.add("triton", LocalTriton(runtime, repository, log_path=base / "triton.log"))
        submissions_repository = base / "submissions_repository"
        submissions_repository.mkdir()
        submissions = group.add(
            "triton-submissions", LocalTriton(runtime, submissions_repository, log_path=base / "triton-sub.log")
        )
        env = {
            "DATABASE_URL": postgres.dsn,
            "REDIS_URL": redis.url,
            "TRITON_URL": triton.http_url,
            "TRITON_SUBMISSIONS_URL": submissions.http_url,
            "JWT_SECRET": os.urandom(32).hex(),
            "PICCOLO_CONF": "server.piccolo_conf",
        }
        os.environ.update(env)  # in-process helpers (seeding, direct SQL) use the same database
        from server import db

        asyncio.run(db.migrate())
        port = free_port()
        group.spawn("worker", [sys.executable, "-m", "server.cli", "worker"], env=env, log_path=base / "worker.log")
        group.spawn(
            "api",
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
            env=env,
            log_path=base / "api.log",
        )
        api_url = f"http://127.0.0.1:{port}"
        _wait_for(f"{api_url}/health", group)
        yield Stack(env=env, api_url=api_url, group=group, services={
            "postgres": postgres, "redis": redis, "triton": triton, "triton_submissions": submissions,
            "base": base, "model_repository": repository,
        })
    finally:
        group.stop_all()


TABLES = (
    "leaderboard_configs, scores, dataset_examples, datasets, models, validations, examples, "
    "contexts, rounds, task_owners, tasks, api_tokens, users"
)


def run_sql(sql: str, *args: Any) -> list[dict]:
    import asyncpg

    async def go():
        connection = await asyncpg.connect(os.environ["DATABASE_URL"])
        try:
            return [dict(r) for r in await connection.fetch(sql, *args)]
        finally:
            await connection.close()

    return asyncio.run(go())


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
    run_sql(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
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


# Fast-profile target models trained from the real datasets in ../shared/data (DESIGN.md: tests may
# read them). Built once and cached between sessions; the build reuses a cache key, so a changed
# recipe or dataset rebuilds.
MODEL_CACHE = Path(os.environ.get("DYNABENCH_TEST_MODEL_CACHE", ROOT / ".dynabench-test-cache" / "models"))
TRAINING_DATA = {
    "sentiment": SHARED_DATA / "sst2" / "train.csv",
    "nli": SHARED_DATA / "nli" / "mnli-matched-dev.jsonl",
    "hate_speech": SHARED_DATA / "hatemoji" / "train.csv",
}


@pytest.fixture(scope="session")
def target_models(stack) -> dict[str, str]:
    """Task code -> Triton model name, each loaded in the stack's target Triton."""
    import shutil

    import tritonclient.http as triton_http

    from server.modelbuild import build_models

    assert all(p.exists() for p in TRAINING_DATA.values()), f"real data missing under {SHARED_DATA}"
    built = build_models(MODEL_CACHE, profile="fast", data=TRAINING_DATA)
    repository: Path = stack.services["model_repository"]
    client = triton_http.InferenceServerClient(stack.env["TRITON_URL"], network_timeout=300)
    names = {}
    for model in built:
        destination = repository / model.name
        if not destination.exists():
            shutil.copytree(model.path, destination)
        client.load_model(model.name)
        names[model.task] = model.name
    client.close()
    return names
