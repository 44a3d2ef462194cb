"""Authorization matrix, accounts and tasks: who may sign up, log in, manage API tokens, read tasks, and manage
rounds (see matrix.py for the outcomes and world.py for the principals)."""

import pytest

from server.tasks.builtin import BUILTIN_TASKS
from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import (
    MAIN_TASK,
    PASSWORD,
    SCRATCH_TARGET,
    SCRATCH_TASK,
    gid,
    pk_of,
)
from tests.conftest import run_sql

ERR = "... on Error { code message }"
QA_CONFIG = next(t["config"] for t in BUILTIN_TASKS if t["code"] == MAIN_TASK)


def _live_token_names(world, principal):
    rows = run_sql('SELECT name FROM api_tokens WHERE "user" = $1 AND revoked_at IS NULL', world.user_pk[principal])
    return sorted(r["name"] for r in rows)


def _token_user(token_id):
    return run_sql('SELECT "user" FROM api_tokens WHERE id = $1', pk_of(token_id))[0]["user"]


def _owners(task_code):
    return [
        r["user"]
        for r in run_sql('SELECT o."user" FROM task_owners o JOIN tasks t ON t.id = o.task WHERE t.code = $1', task_code)
    ]


def _revoke_target(world, principal):
    # Sessions aim at the annotator's token; a token aims at a token of its own account (the admin's).
    owner = world.self_of(principal) if principal.startswith("token_") else "annotator"
    return {"t": gid("ApiToken", world.new_api_token(owner))}


def _revoked_at(world, variables):
    return run_sql("SELECT revoked_at FROM api_tokens WHERE id = $1", pk_of(variables["t"]))


def _fresh_round(world, principal):
    return {"r": gid("Round", world.new_scratch_round())}


def _scratch_current(world, variables):
    return run_sql("SELECT current_round FROM tasks WHERE code = $1", SCRATCH_TASK)


def _round_end(world, variables):
    return run_sql("SELECT end_at FROM rounds WHERE id = $1", pk_of(variables["r"]))


def _check_export(world, principal, value, variables):
    assert value["format"] == "JSONL" and value["url"].startswith("/exports/")
    download = world.api.http.get(value["url"])
    assert download.status_code == 200 and download.headers["content-type"].startswith("application/x-ndjson")


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "me",
        "Query.me",
        "{ me { username } }",
        "hide ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(v, {"username": w.username[p]}),
    ),
    Op(
        "myApiTokens",
        "Query.myApiTokens",
        "{ myApiTokens { name prefix } }",
        "401 ok ok ok ok 403 403 403 ok",
        check=lambda w, p, v, _: same(sorted(t["name"] for t in v), _live_token_names(w, p)),
    ),
    Op(
        "tasks",
        "Query.tasks",
        "{ tasks(first: 50) { edges { node { code } } } }",
        "ok ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(
            [e["node"]["code"] for e in v["edges"]],
            [r["code"] for r in run_sql("SELECT code FROM tasks WHERE active ORDER BY id")],
        ),
    ),
    Op(
        "task",
        "Query.task",
        "query($c: String!) { task(code: $c) { code viewerIsOwner } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"c": MAIN_TASK},
        check=lambda w, p, v, _: same(v, {"code": MAIN_TASK, "viewerIsOwner": w.owns_tasks(p)}),
    ),
    Op(
        "node:Task",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on Task { code } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Task", w.ids["task"])},
        check=lambda w, p, v, _: same(v, {"code": MAIN_TASK}),
    ),
    Op(
        "node:ApiToken",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on ApiToken { name scopes } } }",
        "hide ok hide hide hide hide 403 403 hide",
        prepare=lambda w, p: {"id": gid("ApiToken", w.ids["annotator_token"])},
        check=lambda w, p, v, _: same(v, {"name": "annotator's token", "scopes": ["READ"]}),
    ),
    Op(
        "signUp",
        "Mutation.signUp",
        f"mutation($i: SignUpInput!) {{ signUp(input: $i) {{ __typename ... on AuthPayload {{ token user {{ username }} }} {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",
        ok_type="AuthPayload",
        prepare=lambda w, p: {"i": {"username": w.unique("mx-new-"), "password": PASSWORD}},
        check=lambda w, p, v, a: same(v["user"]["username"], a["i"]["username"]),
    ),
    Op(
        "logIn",
        "Mutation.logIn",
        f"mutation($i: LogInInput!) {{ logIn(input: $i) {{ __typename ... on AuthPayload {{ token user {{ username }} }} {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",
        ok_type="AuthPayload",
        prepare=lambda w, p: {"i": {"username": "mx-login", "password": PASSWORD}},
        check=lambda w, p, v, _: same(v["user"], {"username": "mx-login"}),
    ),
    Op(
        "createApiToken",
        "Mutation.createApiToken",
        "mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { __typename "
        f"... on ApiTokenCreated {{ token apiToken {{ id scopes }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 403 403 ok",
        ok_type="ApiTokenCreated",
        prepare=lambda w, p: {"i": {"name": w.unique("minted "), "scopes": ["READ"]}},
        check=lambda w, p, v, _: same(
            (v["token"][:4], v["apiToken"]["scopes"], _token_user(v["apiToken"]["id"])), ("dbk_", ["READ"], w.user_pk[p])
        ),
    ),
    Op(
        "revokeApiToken",
        "Mutation.revokeApiToken",
        f"mutation($t: ID!) {{ revokeApiToken(tokenId: $t) {{ __typename ... on ApiTokenRevoked {{ apiToken {{ id }} }} {ERR} }} }}",
        "401 ok hide hide hide 403 403 403 ok",
        ok_type="ApiTokenRevoked",
        prepare=_revoke_target,
        watch=_revoked_at,
        check=lambda w, p, v, a: holds(_revoked_at(w, a)[0]["revoked_at"], v),
    ),
    Op(
        "createTask",
        "Mutation.createTask",
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename ... on TaskCreated {{ task {{ code viewerIsOwner }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 403 403 ok",
        ok_type="TaskCreated",
        prepare=lambda w, p: {"i": {"code": w.unique("mx_task_"), "name": "Matrix task", "config": QA_CONFIG}},
        check=lambda w, p, v, a: same(
            (v["task"], _owners(a["i"]["code"])), ({"code": a["i"]["code"], "viewerIsOwner": True}, [w.user_pk[p]])
        ),
    ),
    Op(
        "createRound",
        "Mutation.createRound",
        f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ round {{ number }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="RoundCreated",
        prepare=lambda w, p: {"i": {"taskCode": SCRATCH_TASK, "targetModels": [{"name": SCRATCH_TARGET, "version": "1"}]}},
        watch=_scratch_current,
        check=lambda w, p, v, a: same(v["round"]["number"], _scratch_current(w, a)[0]["current_round"]),
    ),
    Op(
        # A built-in target model belongs to its built-in task: another task's owner may not borrow it (and then
        # retrain it); an admin may (server/permissions/target_models.py).
        "createRound:builtin-target-of-another-task",
        "Mutation.createRound",
        f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ round {{ number }} }} {ERR} }} }}",
        "401 403 403 403 ok 403 403 403 ok",
        ok_type="RoundCreated",
        prepare=lambda w, p: {"i": {"taskCode": SCRATCH_TASK, "targetModels": [{"name": "sentiment_minilm", "version": "1"}]}},
        watch=_scratch_current,
        check=lambda w, p, v, a: same(v["round"]["number"], _scratch_current(w, a)[0]["current_round"]),
    ),
    Op(
        "addContexts",
        "Mutation.addContexts",
        f"mutation($i: AddContextsInput!) {{ addContexts(input: $i) {{ __typename ... on ContextsAdded {{ count }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="ContextsAdded",
        prepare=lambda w, p: {"i": {"roundId": w.round, "contexts": [{"fields": {"context": f"Added by {p}."}}]}},
        check=lambda w, p, v, _: same(
            (v["count"], run_sql("SELECT count(*) AS n FROM contexts WHERE fields->>'context' = $1", f"Added by {p}.")[0]["n"]),
            (1, 1),
        ),
    ),
    Op(
        "setRoundTargets",
        "Mutation.setRoundTargets",
        f"mutation($i: SetRoundTargetsInput!) {{ setRoundTargets(input: $i) {{ __typename "
        f"... on RoundTargetsSet {{ round {{ id targetModels {{ name version }} }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="RoundTargetsSet",
        prepare=lambda w, p: {
            "i": {"roundId": gid("Round", w.new_scratch_round()), "targetModels": [{"name": SCRATCH_TARGET, "version": "1"}]}
        },
        watch=lambda w, v: run_sql("SELECT target_models::text AS t FROM rounds WHERE id = $1", pk_of(v["i"]["roundId"])),
        check=lambda w, p, v, a: same(
            (v["round"]["id"], v["round"]["targetModels"]), (a["i"]["roundId"], [{"name": SCRATCH_TARGET, "version": "1"}])
        ),
    ),
    Op(
        "closeRound",
        "Mutation.closeRound",
        f"mutation($r: ID!) {{ closeRound(roundId: $r) {{ __typename ... on RoundClosed {{ round {{ id endAt }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="RoundClosed",
        prepare=_fresh_round,
        watch=_round_end,
        check=lambda w, p, v, a: holds(v["round"]["id"] == a["r"] and v["round"]["endAt"] and _round_end(w, a)[0]["end_at"], v),
    ),
    Op(
        "exportRound",
        "Mutation.exportRound",
        f"mutation($r: ID!) {{ exportRound(roundId: $r) {{ __typename ... on RoundExport {{ url format }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="RoundExport",
        prepare=lambda w, p: {"r": w.round},
        check=_check_export,
    ),
    Op(
        "roundStats",
        "Subscription.roundStats",
        "subscription($r: ID!) { roundStats(roundId: $r) { id number } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, _: same(v, {"id": w.round, "number": 1}),
    ),
    Op(
        "taskListChanged",
        "Subscription.taskListChanged",
        "subscription { taskListChanged { change task { code } } }",
        "ok ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(v, {"change": "LISTENING", "task": None}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
