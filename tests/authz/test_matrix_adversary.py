"""Authorization matrix, adversary runs (issue #31 point 5): starting, reading and cancelling a run (see matrix.py and
world.py).

All three are owner operations on the run's task (the task_owner, the admin, an admin-scoped token; other tokens lack
the admin scope: 403); a run of a task someone does not own is hidden from them (NOT_FOUND), a round they can see but
do not own refuses the start (403), as closeRound does. The module's world adds a sentiment task owned by the
task_owner whose generator is the demo generative model, with one round judged by the suite's sentiment model
(inserted by SQL) and one context: an allowed start really runs (one example), and the cell waits for it to end.
"""

import json
import uuid

import pytest

from tests.api.examples_helpers import wait_until
from tests.authz.matrix import Op, cells, run_cell, same
from tests.authz.world import gid
from tests.conftest import run_sql

ERR = "... on Error { code message }"
TASK = "mx_adversary"
RUN = "id status requested startedBy"


@pytest.fixture(scope="module", autouse=True)
def adversary_world(world, target_models):
    config = {
        "kind": "classification",
        "context_fields": [{"name": "context", "max_length": 500}],
        "input_fields": [{"name": "statement", "max_length": 300}],
        "model_inputs": ["statement"],
        "labels": ["negative", "positive", "neutral"],
        "output_fields": ["label", "probs"],
        "fooling": {"metric": "exact_match"},
        "performance_metric": "accuracy",
        "suggestions": {"generator": {"model": target_models["chat_demo"], "temperature": 0.0, "max_tokens": 32, "count": 1}},
    }
    created = world.api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}",
        {"i": {"code": TASK, "name": "Matrix adversary runs", "config": config}},
        token=world.bearer["admin"],
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = run_sql("SELECT id FROM tasks WHERE code = $1", TASK)[0]["id"]
    run_sql('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', task, world.user_pk["task_owner"])
    world.ids["adversary_task"] = task
    world.ids["adversary_round"] = run_sql(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps([{"name": target_models["sentiment"], "version": "1"}]),
    )[0]["id"]
    run_sql("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    run_sql(
        "INSERT INTO contexts (round, fields, total_used, total_fooled, created_at) VALUES ($1, $2, 0, 0, now())",
        world.ids["adversary_round"],
        json.dumps({"context": "Reviews of a bakery."}),
    )


def _start(world, principal):
    return {"i": {"roundId": gid("Round", world.ids["adversary_round"]), "clientId": str(uuid.uuid4()), "count": 1}}


def _started_rows(world, variables):
    return run_sql("SELECT started_by, requested FROM adversary_runs WHERE client_id = $1", uuid.UUID(variables["i"]["clientId"]))


def _check_started(world, principal, value, variables):
    same(
        [(r["started_by"], r["requested"]) for r in _started_rows(world, variables)],
        [(world.user_pk[world.self_of(principal)], 1)],
    )
    same((value["run"]["requested"], value["run"]["startedBy"]), (1, world.username[world.self_of(principal)]))


def _wait_for_the_run(world, principal, variables):
    """An allowed start really runs: its job ends before the next cell counts the tables."""
    client_id = uuid.UUID(variables["i"]["clientId"])
    wait_until(
        lambda: (
            run_sql("SELECT status FROM adversary_runs WHERE client_id = $1", client_id)[0]["status"]
            in ("done", "failed", "cancelled")
        ),
        timeout=240,
    )


def _stored_run(world, principal):
    """A queued run of the task, inserted by SQL (no job: nothing runs), the task's other active runs cancelled."""
    task = world.ids["adversary_task"]
    run_sql("UPDATE adversary_runs SET status = 'cancelled' WHERE task = $1 AND status IN ('queued', 'running')", task)
    pk = run_sql(
        "INSERT INTO adversary_runs (client_id, round, task, started_by, requested, status) "
        "VALUES ($1, $2, $3, $4, 3, 'queued') RETURNING id",
        uuid.uuid4(),
        world.ids["adversary_round"],
        task,
        world.user_pk["task_owner"],
    )[0]["id"]
    return {"_pk": pk, "r": gid("AdversaryRun", pk)}


def _run_status(world, variables):
    return run_sql("SELECT status FROM adversary_runs WHERE id = $1", variables["_pk"])


OPS = [
    Op(
        "startAdversaryRun",
        "Mutation.startAdversaryRun",
        f"mutation($i: StartAdversaryRunInput!) {{ startAdversaryRun(input: $i) {{ __typename "
        f"... on AdversaryRunStarted {{ run {{ {RUN} }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="AdversaryRunStarted",
        prepare=_start,
        watch=_started_rows,
        check=_check_started,
        after=_wait_for_the_run,
    ),
    Op(
        "cancelAdversaryRun",
        "Mutation.cancelAdversaryRun",
        f"mutation($r: ID!) {{ cancelAdversaryRun(runId: $r) {{ __typename ... on AdversaryRunCancelled {{ run {{ {RUN} }} }} {ERR} }} }}",
        "401 hide hide ok ok 403 403 403 ok",
        ok_type="AdversaryRunCancelled",
        prepare=_stored_run,
        watch=_run_status,
        check=lambda w, p, v, a: same((v["run"]["status"], _run_status(w, a)[0]["status"]), ("CANCELLED", "cancelled")),
    ),
    Op(
        "adversaryRun",
        "Query.adversaryRun",
        f"query($r: ID!) {{ adversaryRun(id: $r) {{ {RUN} }} }}",
        "401 hide hide ok ok 403 403 403 ok",
        prepare=_stored_run,
        check=lambda w, p, v, a: same((v["id"], v["requested"]), (a["r"], 3)),
    ),
]


@pytest.mark.parametrize(("op", "principal"), cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
