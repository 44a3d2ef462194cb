"""Guard rails (depth, aliases, tokens, masking) and live updates over graphql-transport-ws."""

import asyncio
import json
import os
import uuid

from graphql import GraphQLError
from websockets.sync.client import connect

from server.graphql.core.errors import PublicError, should_mask_error
from tests.conftest import run_sql, seed_builtin_tasks


def test_depth_limit(api):
    deep = "{ tasks { edges { node { currentRound { task { currentRound { task { currentRound { task { currentRound { task { code } } } } } } } } } } } }"
    errors = api.errors(deep)
    assert "exceeds maximum operation depth" in errors[0]["message"]


def test_alias_limit(api):
    query = "{ " + " ".join(f"a{i}: me {{ username }}" for i in range(30)) + " }"
    assert "aliases found" in api.errors(query)[0]["message"]


def test_token_limit(api):
    query = "{ me { " + " ".join(["username"] * 3000) + " } }"
    assert "token" in api.errors(query)[0]["message"].lower()


def test_unexpected_errors_are_masked_but_client_errors_are_not():
    internal = GraphQLError("boom", original_error=RuntimeError("db password is hunter2"), path=["tasks"])
    assert should_mask_error(internal)
    public = GraphQLError("bad", original_error=PublicError("bad", "PAGE_SIZE"), path=["tasks"])
    assert not should_mask_error(public) and public.extensions["code"] == "PAGE_SIZE"
    assert not should_mask_error(GraphQLError("Syntax Error: Unexpected Name"))


def test_out_of_range_ids_are_not_found(api):
    from strawberry.relay import to_base64

    query = "query($id: ID!) { node(id: $id) { __typename } }"
    assert api(query, {"id": to_base64("Task", 2**40)}) == {"node": None}


def test_body_limit(api):
    response = api.http.post(
        "/graphql", content=b"{" + b" " * (3 * 1024 * 1024) + b"}", headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def _ws_url(stack):
    return stack.api_url.replace("http://", "ws://") + "/graphql"


def _next_payload(ws):
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))
            continue
        assert message["type"] == "next", message
        return message["payload"]


def test_round_stats_subscription_yields_state_then_live_recounts(stack, api):
    seed_builtin_tasks()
    data = api('{ task(code: "sentiment") { currentRound { id totalCollected } } }')["task"]["currentRound"]
    assert data["totalCollected"] == 0
    with connect(_ws_url(stack), subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($id: ID!) { roundStats(roundId: $id) { number totalCollected totalFooled mer } }",
                        "variables": {"id": data["id"]},
                    },
                }
            )
        )
        assert _next_payload(ws)["data"]["roundStats"] == {"number": 1, "totalCollected": 0, "totalFooled": 0, "mer": None}

        # Three examples appear (two fooled); the worker's idempotent recount publishes the change.
        user_id = run_sql(
            "INSERT INTO users (username, password_hash, is_admin, created_at) VALUES ('w', 'x', false, now()) RETURNING id"
        )[0]["id"]
        round_pk = run_sql("SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'")[0]["id"]
        context_pk = run_sql("SELECT id FROM contexts WHERE round = $1 LIMIT 1", round_pk)[0]["id"]
        for fooled in (True, True, False):
            run_sql(
                'INSERT INTO examples (client_id, round, context, "user", input, fooled, status, retracted, flagged, explanation, model_name, model_version, created_at) '
                "VALUES ($1, $2, $3, $4, '{}', $5, 'open', false, false, '', 'm', '1', now())",
                uuid.uuid4(),
                round_pk,
                context_pk,
                user_id,
                fooled,
            )
        _enqueue_recount(round_pk)
        assert _next_payload(ws)["data"]["roundStats"] == {"number": 1, "totalCollected": 3, "totalFooled": 2, "mer": 2 / 3}
        _enqueue_recount(round_pk)  # running it again changes nothing
        assert _next_payload(ws)["data"]["roundStats"]["totalCollected"] == 3
        ws.send(json.dumps({"id": "1", "type": "complete"}))


def _insert_example(round_pk: int) -> None:
    user_id = run_sql(
        "INSERT INTO users (username, password_hash, is_admin, created_at) VALUES ($1, 'x', false, now()) RETURNING id",
        f"w-{uuid.uuid4().hex[:8]}",
    )[0]["id"]
    context_pk = run_sql("SELECT id FROM contexts WHERE round = $1 LIMIT 1", round_pk)[0]["id"]
    run_sql(
        'INSERT INTO examples (client_id, round, context, "user", input, fooled, status, retracted, flagged, explanation, model_name, model_version, created_at) '
        "VALUES ($1, $2, $3, $4, '{}', true, 'open', false, false, '', 'm', '1', now())",
        uuid.uuid4(),
        round_pk,
        context_pk,
        user_id,
    )


def test_watchers_share_a_rounds_counters_and_each_sees_its_own_viewer_fields(stack, api, admin_token):
    """One execution of a selection of the round alone serves every watcher (server/graphql/core/shared_events.py);
    a selection with a field that sees the viewer (task.viewerIsOwner) is still answered for each viewer."""
    seed_builtin_tasks()
    other = api.sign_up("shared-watcher")
    owns = {
        token: api('{ task(code: "sentiment") { viewerIsOwner } }', token=token)["task"]["viewerIsOwner"]
        for token in (admin_token, other)
    }
    assert owns == {admin_token: True, other: False}
    round_id = api('{ task(code: "sentiment") { currentRound { id } } }')["task"]["currentRound"]["id"]
    round_pk = run_sql("SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'")[0]["id"]
    pure = "subscription($id: ID!) { roundStats(roundId: $id) { id totalCollected totalFooled mer } }"
    personal = "subscription($id: ID!) { roundStats(roundId: $id) { totalCollected task { viewerIsOwner } } }"
    watchers = [(admin_token, pure), (other, pure), (None, pure), (admin_token, personal), (other, personal)]
    sockets = []
    try:
        for token, query in watchers:
            ws = connect(_ws_url(stack), subprotocols=["graphql-transport-ws"])
            sockets.append(ws)
            ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"} if token else {}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": {"id": round_id}}}))
            first = _next_payload(ws)["data"]["roundStats"]
        before = first["totalCollected"]
        _insert_example(round_pk)
        _enqueue_recount(round_pk)
        updates = []
        for ws in sockets:
            update = _next_payload(ws)
            while update["data"]["roundStats"]["totalCollected"] == before:  # a change of another kind came first
                update = _next_payload(ws)
            updates.append(update["data"]["roundStats"])
    finally:
        for ws in sockets:
            ws.close()
    assert updates[0] == updates[1] == updates[2], updates
    assert updates[0]["id"] == round_id and updates[0]["totalCollected"] == before + 1, updates
    assert updates[3] == {"totalCollected": before + 1, "task": {"viewerIsOwner": True}}
    assert updates[4] == {"totalCollected": before + 1, "task": {"viewerIsOwner": False}}


def _enqueue_recount(round_pk: int) -> None:
    from arq import create_pool
    from arq.connections import RedisSettings

    from server.annotation.validation import jobs as rounds_jobs
    from server.core.jobs import job_name

    async def go():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        await pool.enqueue_job(job_name(rounds_jobs.recompute_round_counters), round_pk)
        await pool.aclose()

    asyncio.run(go())


def test_subscription_with_a_bad_id_gets_an_error_not_a_crash(stack, api):
    seed_builtin_tasks()
    task_id = api('{ task(code: "qa") { id } }')["task"]["id"]
    with connect(_ws_url(stack), subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        query = "subscription($id: ID!) { roundStats(roundId: $id) { number } }"
        for number, (bad_id, expected) in enumerate([("nope", "GlobalID"), (task_id, "not a Round id")]):
            ws.send(
                json.dumps({"id": str(number), "type": "subscribe", "payload": {"query": query, "variables": {"id": bad_id}}})
            )
            message = json.loads(ws.recv(timeout=30))
            errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
            assert expected in errors[0]["message"]
