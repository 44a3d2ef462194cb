"""The authorization matrix engine: an operation row, one real request per (operation, principal) cell through
the public API (HTTP for queries and mutations, graphql-transport-ws for subscriptions), and the outcome.

Outcomes, as written in the table:

- ok:   allowed; the row's `check` asserts the result;
- 401:  refused as anonymous: `AuthenticationError` (code AUTHENTICATION_REQUIRED) in a mutation's result, a
        GraphQL error with that code for queries and subscriptions;
- 403:  refused: `PermissionError` (code FORBIDDEN), or a GraphQL error with code FORBIDDEN;
- hide: the object is hidden from this viewer, as documented: `node` (and `me` when anonymous) answer null,
        `revokeApiToken` answers `NotFoundError` for another user's token, and queries of one object
        (`exampleReview`) answer a GraphQL error with code NOT_FOUND.

A refused cell must also leave the database as it was: the row count of every table, and the rows the
operation would have changed (its `watch` query), are compared before and after.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.sync.client import connect

from tests.authz.world import PRINCIPALS, World
from tests.conftest import run_sql

OUTCOMES = ("ok", "401", "403", "hide")
CODES = {"AUTHENTICATION_REQUIRED": "401", "FORBIDDEN": "403", "NOT_FOUND": "hide"}
REFUSALS = {
    "AuthenticationError": ("401", "AUTHENTICATION_REQUIRED"),
    "PermissionError": ("403", "FORBIDDEN"),
    "NotFoundError": ("hide", "NOT_FOUND"),
}
# Every table a refused call might write to. Not user_round_stats nor validation_claims: the worker's
# aggregation of an earlier allowed vote upserts the first, and handing out examples (a query) writes the second;
# nor campaign_ledger_lines, which the ledger job writes after an earlier allowed call.
COUNTED = (
    "users",
    "api_tokens",
    "account_tokens",
    "tasks",
    "task_owners",
    "task_config_versions",
    "rounds",
    "contexts",
    "examples",
    "validations",
    "models",
    "datasets",
    "dataset_examples",
    "scores",
    "leaderboard_configs",
    "training_runs",
    "campaigns",
    "campaign_workers",
    "campaign_approved",
    "gold_items",
    "gold_answers",
    "duplicate_refusals",
    "validator_reinstatements",
    "webhooks",
    "example_events",
    "admin_audit",
    "shared_target_models",
    "llm_endpoints",
    "generation_usage",
    # A reply streamed in the background of an allowed sendMessage or retryReply updates only the turn it belongs to.
    "conversations",
    "conversation_turns",
    "battles",
    "battle_sides",
    "battle_votes",
    "battle_continuations",
    "battle_voter_reinstatements",
    "suggestions",
    # An allowed startAdversaryRun's job writes its examples; its cell waits for the run to end.
    "adversary_runs",
)


@dataclass
class Op:
    name: str  # the test id: the field, or field:variant
    field: str  # Query.x | Mutation.x | Subscription.x
    document: str
    expect: str  # one outcome per principal, in PRINCIPALS order
    prepare: Callable[[World, str], dict] = lambda world, principal: {}  # variables; keys starting with _ stay local
    check: Callable[[World, str, Any, dict], None] | None = None  # asserts the allowed result
    watch: Callable[[World, dict], Any] | None = None  # what a refused call must leave unchanged
    ok_type: str | None = None  # the success member of a mutation's result union
    upload: tuple[str, str, bytes] | None = None  # multipart upload: (variable, filename, content)
    after: Callable[[World, str, dict], None] | None = None  # clean-up after an allowed cell

    @property
    def kind(self) -> str:
        return self.field.split(".")[0]

    @property
    def root(self) -> str:
        return self.field.split(".")[1]

    def expected(self) -> dict[str, str]:
        cells = self.expect.split()
        assert len(cells) == len(PRINCIPALS) and set(cells) <= set(OUTCOMES), (self.name, cells)
        return dict(zip(PRINCIPALS, cells))


def cells(ops: list[Op]) -> list:
    import pytest

    return [pytest.param(op, principal, id=f"{op.name}-{principal}") for op in ops for principal in PRINCIPALS]


def counts() -> dict:
    return run_sql("SELECT " + ", ".join(f"(SELECT count(*) FROM {t}) AS {t}" for t in COUNTED))[0]


def run_cell(world: World, op: Op, principal: str) -> None:
    expected = op.expected()[principal]
    variables = op.prepare(world, principal)
    sent = {k: v for k, v in variables.items() if not k.startswith("_")}
    before = (counts(), op.watch(world, variables) if op.watch else None)
    if op.kind == "Subscription":
        outcome, value = _subscribe(world, op, principal, sent)
    else:
        # `_bearer`: an account like the principal's, made for this cell (deleteMyAccount must not delete the world's).
        outcome, value = _request(world, op, principal, sent, variables.get("_bearer"))
    assert outcome == expected, f"{op.name} as {principal}: expected {expected}, got {outcome}: {value}"
    if outcome == "ok":
        if op.check:
            op.check(world, principal, value, variables)
        if op.after:
            op.after(world, principal, variables)
    else:
        after = (counts(), op.watch(world, variables) if op.watch else None)
        assert after == before, f"{op.name} as {principal} was refused but wrote: {before} -> {after}"


def _request(world: World, op: Op, principal: str, variables: dict, bearer_override: str | None = None) -> tuple[str, Any]:
    bearer = bearer_override or world.bearer[principal]
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    if op.upload:
        variable, filename, content = op.upload
        operations = json.dumps({"query": op.document, "variables": {**variables, variable: None}})
        response = world.api.http.post(
            "/graphql",
            headers=headers,
            files={"0": (filename, content, "application/octet-stream")},
            data={"operations": operations, "map": json.dumps({"0": [f"variables.{variable}"]})},
        )
    else:
        response = world.api.http.post("/graphql", headers=headers, json={"query": op.document, "variables": variables})
    assert response.status_code == 200, f"{op.name} as {principal}: HTTP {response.status_code} {response.text[:500]}"
    body = response.json()
    if body.get("errors"):
        return _error_outcome(body["errors"])
    value = body["data"][op.root]
    if op.kind == "Query":
        return ("hide" if value is None else "ok"), value
    result = value[0] if isinstance(value, list) else value  # submitExamples: one result per input
    typename = result["__typename"]
    if typename in REFUSALS:
        outcome, code = REFUSALS[typename]
        assert result["code"] == code, result
        return outcome, result
    assert typename == op.ok_type, f"{op.name} as {principal}: unexpected result {result}"
    return "ok", value


def _error_outcome(errors: list[dict]) -> tuple[str, Any]:
    code = (errors[0].get("extensions") or {}).get("code")
    assert code in CODES, f"an error that is not a refusal: {errors}"
    return CODES[code], errors


def _subscribe(world: World, op: Op, principal: str, variables: dict) -> tuple[str, Any]:
    bearer = world.bearer[principal]
    with connect(world.ws_url, subprotocols=["graphql-transport-ws"], open_timeout=30) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {bearer}"} if bearer else {}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": op.document, "variables": variables}}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "ping":
                ws.send(json.dumps({"type": "pong"}))
                continue
            break
        if message["type"] == "error":
            return _error_outcome(message["payload"])
        assert message["type"] == "next", message
        if message["payload"].get("errors"):
            return _error_outcome(message["payload"]["errors"])
        ws.send(json.dumps({"id": "1", "type": "complete"}))
        return "ok", message["payload"]["data"][op.root]


def same(actual: Any, expected: Any) -> None:
    """For the rows' `check` lambdas: assert equality with both values in the message."""
    assert actual == expected, f"got {actual!r}, expected {expected!r}"


def holds(condition: Any, detail: Any) -> None:
    assert condition, f"check failed on {detail!r}"
