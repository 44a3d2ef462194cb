"""The world the fuzzers aim at: two owners, a third user, tasks, rounds, contexts, examples, a vote, a
dataset, a model, training runs, API tokens; and a cheap fingerprint of every table to detect writes.

Everything is created through the GraphQL API except rows whose only producer is a long job (a model a
deploy job gave up on, training runs), which are inserted the way those jobs leave them.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
from strawberry.relay import to_base64

from server.tasks.builtin import BUILTIN_TASKS
from tests.conftest import TABLES

QA_CONFIG = next(task["config"] for task in BUILTIN_TASKS if task["code"] == "qa")
SENTIMENT_CONFIG = {
    "kind": "classification",
    "context_fields": [{"name": "context", "display_name": "Prompt", "max_length": 5000}],
    "input_fields": [{"name": "statement", "max_length": 1000}],
    "model_inputs": ["statement"],
    "labels": ["negative", "positive", "neutral"],
    "output_fields": ["label", "probs"],
    "fooling": {"metric": "exact_match"},
    "performance_metric": "accuracy",
}
# fooling ask_user: examples await their author's claim (claimFooled).
ASK_USER_CONFIG = {**SENTIMENT_CONFIG, "fooling": {"metric": "ask_user"}}
TARGET = "sentiment_minilm"
QA_TARGET = "qa_overlap_baseline"
PASSAGE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 and won the Nobel Prize twice."
PASSWORD = "correct horse battery"

# One row per table: row count and a checksum of the columns clients write. Columns that workers keep
# up to date on their own (counters, statuses, logs, last-use times) are left out, so that a job
# finishing in the background is not mistaken for a write by the request under test.
_TRACKED = {
    "users": "id, username, email, password_hash, is_admin",
    "api_tokens": 'id, "user", name, prefix, scopes, revoked_at',
    "tasks": "id, code, name, description, config, active, current_round, status, review_note, instructions, config_version",
    "task_config_versions": "task, version, config, created_by",
    "task_owners": 'task, "user"',
    "rounds": "id, task, number, target_models, end_at",
    "contexts": "id, round, fields, tag",
    "examples": 'id, client_id, round, context, "user", input, retracted, flagged, flag_reason, explanation, time_spent_ms',
    "validations": 'id, example, "user", label, mode, note',
    "user_round_stats": '"user", round',
    "validation_claims": 'example, "user"',
    "models": "id, task, owner, name, card, published, anonymous",
    "datasets": "id, task, round, name, access, weight",
    "dataset_examples": "id, dataset, uid, fields, gold, tags, perturbation",
    "scores": "model, dataset",
    "leaderboard_configs": "id, task, owner, name, metric_weights, dataset_weights",
    "training_runs": "id, task, requested_by, from_rounds, base_model, profile",
    # Not campaign_ledger_lines: the ledger job writes them in the background (after an allowed finishCampaign).
    "campaigns": "id, task, round, platform, title, status, code, consent_md, instructions_md, quiz, quotas, currency, "
    "base_cents, fooling_bonus_cents, agree_bonus_cents, bonus_cap_cents, completion_code, failure_code, completion_redirect",
    "campaign_workers": 'id, campaign, "user", external_key, entry, consented_at, quiz_attempts, quiz_passed, screened_out, '
    "finished_at",
    "campaign_approved": "id, campaign, worker, external_id, assignment_id, submission_id",
    "validator_reinstatements": 'task, "user", reinstated_at, reinstated_by',
    # Not enabled nor the failure count: the delivery job disables a failing hook in the background.
    "webhooks": "id, task, url, events, description",
    "shared_target_models": "name, shared_by",
    "llm_endpoints": "id, name, base_url, model, api_key_sealed, timeout_s, max_concurrency, enabled",
    "generation_usage": 'endpoint, "user", task, day, calls, errors, prompt_tokens, completion_tokens',
    # Not the replies, statuses, attempts nor judge scores of turns: the reply streamed in the background of an allowed
    # sendMessage or retryReply writes them after the request answered.
    "conversations": 'id, client_id, round, context, "user", target, params, example',
    "conversation_turns": "id, conversation, position, client_id, message",
    "battles": 'id, client_id, round, context, "user", prompt',
    "battle_sides": "id, battle, position, conversation, rating",
    "battle_votes": 'id, battle, "user", choice, client_id',
    "suggestions": 'id, request_id, position, "user", round, context, kind, fields',
    "battle_continuations": 'id, battle, position, "user", client_id',
    "adversary_runs": "id, client_id, round, task, started_by, requested, status",
}
FINGERPRINT_SQL = "SELECT " + ", ".join(
    f"(SELECT count(*) || ':' || coalesce(sum(hashtext(({columns})::text)), 0) FROM {table}) AS {table}"
    for table, columns in _TRACKED.items()
)


class Database:
    """One connection on a private event loop: a fingerprint costs one round trip, not a new connection."""

    def __init__(self, dsn: str):
        self.loop = asyncio.new_event_loop()
        self.connection = self.loop.run_until_complete(asyncpg.connect(dsn))

    def fetch(self, sql: str, *args: Any) -> list[dict]:
        return [dict(r) for r in self.loop.run_until_complete(self.connection.fetch(sql, *args))]

    def fingerprint(self) -> dict[str, str]:
        return self.fetch(FINGERPRINT_SQL)[0]

    def close(self) -> None:
        self.loop.run_until_complete(self.connection.close())
        self.loop.close()


def gid(type_name: str, pk: int) -> str:
    return to_base64(type_name, pk)


@dataclass(repr=False)
class World:
    http: httpx.Client
    db: Database
    tokens: dict[str, str | None] = field(default_factory=dict)
    refs: dict[str, Any] = field(default_factory=dict)

    def resolve(self, value: Any) -> Any:
        from tests.fuzz.plausible import Ref

        if isinstance(value, Ref):
            return self.refs[value.key]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        return value

    def gql(self, query: str, variables: dict | None = None, viewer: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {self.tokens[viewer]}"} if viewer else {}
        response = self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
        assert response.status_code == 200, response.text
        body = response.json()
        assert not body.get("errors"), body["errors"]
        return body["data"]


def _sign_up(world: World, name: str) -> None:
    data = world.gql(
        "mutation($i: SignUpInput!) { signUp(input: $i) { ... on AuthPayload { token user { id } } } }",
        {"i": {"username": name, "password": PASSWORD, "email": f"{name}@example.org"}},
    )
    world.tokens[name] = data["signUp"]["token"]
    world.refs[f"user:{name}"] = data["signUp"]["user"]["id"]
    world.refs[f"username:{name}"] = name


def _task(world: World, owner: str, code: str, config: dict = SENTIMENT_CONFIG, target: str = TARGET) -> None:
    # A built-in target model belongs to its built-in task: only an admin opens another task's round with it. And a
    # non-admin's new task would be a proposal (seen only by its owners): the world's tasks are public ones.
    world.db.fetch("UPDATE users SET is_admin = true WHERE username = $1", owner)
    world.gql(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { ... on TaskCreated { task { id } } } }",
        {"i": {"code": code, "name": f"Task {code}", "config": config}},
        owner,
    )
    created = world.gql(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { ... on RoundCreated { round { id } } } }",
        {"i": {"taskCode": code, "targetModels": [{"name": target}]}},
        owner,
    )
    world.db.fetch("UPDATE users SET is_admin = false WHERE username = $1", owner)
    round_id = created["createRound"]["round"]["id"]
    contexts = [{"fields": {"context": f"{PASSAGE} Write about {topic}."}, "tag": topic} for topic in ("food", "films", "travel")]
    world.gql(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { ... on ContextsAdded { count } } }",
        {"i": {"roundId": round_id, "contexts": contexts}},
        owner,
    )
    world.refs[f"code:{code}"] = code
    world.refs[f"round:{code}"] = round_id
    pks = world.db.fetch(
        "SELECT c.id FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task "
        "WHERE t.code = $1 ORDER BY c.id",
        code,
    )
    for i, row in enumerate(pks):
        world.refs[f"context:{code}:{i}"] = gid("Context", row["id"])


def _example(world: World, author: str, code: str, fields: dict, **answer: str) -> None:
    client_id = str(uuid.uuid4())
    data = world.gql(
        "mutation($i: CreateExampleInput!) { createExample(input: $i) { __typename ... on ExampleSubmitted { example { id } } } }",
        {
            "i": {
                "roundId": world.refs[f"round:{code}"],
                "contextId": world.refs[f"context:{code}:0"],
                "fields": fields,
                "clientId": client_id,
                **answer,
            }
        },
        author,
    )
    assert data["createExample"]["__typename"] == "ExampleSubmitted", data
    world.refs[f"example:{author}:{code}"] = data["createExample"]["example"]["id"]
    world.refs[f"clientId:{author}:{code}"] = client_id


def _dataset(world: World, owner: str, code: str) -> None:
    rows = [
        {"uid": f"u{i}", "statement": text, "label": label}
        for i, (text, label) in enumerate(
            [("I loved it.", "positive"), ("Awful service.", "negative"), ("It is a chair.", "neutral")]
        )
    ]
    query = (
        "mutation($t: String!, $n: String!, $f: Upload!) { createDataset(taskCode: $t, name: $n, file: $f) "
        "{ __typename ... on DatasetCreated { dataset { id } } } }"
    )
    response = world.http.post(
        "/graphql",
        headers={"Authorization": f"Bearer {world.tokens[owner]}"},
        data={
            "operations": json.dumps({"query": query, "variables": {"t": code, "n": "gold", "f": None}}),
            "map": json.dumps({"0": ["variables.f"]}),
        },
        files={"0": ("gold.jsonl", "\n".join(map(json.dumps, rows)).encode())},
    )
    created = response.json()["data"]["createDataset"]
    assert created["__typename"] == "DatasetCreated", created
    world.refs[f"dataset:{code}"] = created["dataset"]["id"]


def build_world(http: httpx.Client, db: Database) -> World:
    db.fetch(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    world = World(http=http, db=db)
    for name in ("alice", "bob", "carol"):
        _sign_up(world, name)
    _task(world, "alice", "alpha")
    _task(world, "bob", "beta")
    _task(world, "bob", "gamma", QA_CONFIG, QA_TARGET)
    _example(world, "carol", "alpha", {"statement": "The soup was wonderful."}, label="positive")
    _example(world, "bob", "alpha", {"statement": "The bus was late again."}, label="positive")
    _example(world, "alice", "beta", {"statement": "What a lovely morning."}, label="positive")
    _example(world, "carol", "gamma", {"question": "Where was Marie Curie born?"}, answer="Warsaw")
    _task(world, "alice", "delta", ASK_USER_CONFIG)
    _example(world, "carol", "delta", {"statement": "The film was long."}, label="negative")  # awaiting its claim
    world.gql(
        "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }",
        {"e": world.refs["example:carol:alpha"]},
        "bob",
    )
    _dataset(world, "alice", "alpha")
    world.gql(
        'mutation($t: String!) { saveLeaderboardConfig(taskCode: $t, name: "balanced", metricWeights: [{metric: PERF, weight: 1}]) '
        "{ __typename } }",
        {"t": "alpha"},
        "carol",
    )
    world.refs["leaderboard:alpha"] = "balanced"
    for owner, scopes in (("carol", ["READ"]), ("alice", ["READ", "ANNOTATE", "MODELS", "ADMIN"])):
        data = world.gql(
            "mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { ... on ApiTokenCreated { token apiToken { id } } } }",
            {"i": {"name": f"{owner} script", "scopes": scopes}},
            owner,
        )
        world.tokens[f"{owner}:token"] = data["createApiToken"]["token"]
        world.refs[f"apiToken:{owner}"] = data["createApiToken"]["apiToken"]["id"]
    ids = {row["code"]: row["id"] for row in db.fetch("SELECT id, code FROM tasks")}
    users = {row["username"]: row["id"] for row in db.fetch("SELECT id, username FROM users")}
    # A model whose deployment failed (what the deploy job leaves), and training runs as the training job
    # leaves them: a published version to open the next round with, and a run still queued, so that a
    # valid trainTargetModel is refused as a conflict instead of starting minutes of training.
    model = db.fetch(
        "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, "
        "published, anonymous, created_at) VALUES ($1, $2, 'bob model', '{}', 'failed', '[]', '', '', false, false, now()) "
        "RETURNING id",
        ids["alpha"],
        users["bob"],
    )
    world.refs["model:bob"] = gid("Model", model[0]["id"])
    for code, owner in (("alpha", "alice"), ("beta", "bob"), ("gamma", "bob")):
        for status, version in (("published", "7"), ("queued", "")):
            run = db.fetch(
                "INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, progress, "
                "status_log, model_name, model_version, n_validated, metrics, created_at) VALUES "
                "($1, $2, '[1]', '', 'fast', $3, 0, '[]', $4, $5, 0, '{}', now()) RETURNING id",
                ids[code],
                users[owner],
                status,
                TARGET,
                version,
            )
            world.refs[f"run:{status}:{code}"] = gid("TrainingRun", run[0]["id"])
    world.refs["version:published"] = "7"
    world.tokens.update(
        {
            "anonymous": None,
            "garbage": "not-a-token",
            "expired": _foreign_jwt(),
            "unknown_api_token": "dbk_0123456789ab_" + "A" * 43,
            "long_api_token": "dbk_" + "f" * 300 + "_x",
        }
    )
    return world


def _foreign_jwt() -> str:
    import jwt

    return jwt.encode({"sub": "1", "exp": 4102444800}, "some other secret that is long enough!!", algorithm="HS256")
