"""Authorization matrix, the operations that name a hidden task (issue #28 point 1; see matrix.py and world.py). In this
module's world the main task (`qa`, owned by task_owner) is HIDDEN: to everyone but its owners and admins (the admin's
tokens included) it answers as a missing task would, NOT_FOUND ("hide"), where a public task's stranger is told
FORBIDDEN; a scope check that comes first (anonymous, a token lacking the scope) still answers as before."""

import pytest

from tests.authz.matrix import Op, cells, run_cell, same
from tests.authz.world import MAIN_TASK, gid
from tests.conftest import run_sql

ERR = "... on Error { code message }"
SEES_THE_TASK = {"task_owner", "admin", "token_read", "token_annotate", "token_models", "token_admin"}


def _published_model(world) -> int:
    if "published_model" not in world.ids:
        world.ids["published_model"] = world.new_model("annotator", published=True)
    return world.ids["published_model"]


def _task_of_model(world, principal, value, _):
    same(value["task"], {"code": MAIN_TASK} if principal in SEES_THE_TASK else None)


def _owner_query(name: str, document: str) -> Op:
    # Before: "401 403 403 ok ok 403 403 403 ok" on a public task; the hidden one is not told apart from a missing one.
    return Op(name, f"Query.{name}", document, "401 hide hide ok ok 403 403 403 ok", prepare=lambda w, p: {"t": MAIN_TASK})


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "uploadModel:hidden",
        "Mutation.uploadModel",
        f'mutation($t: String!, $a: Upload!) {{ uploadModel(taskCode: $t, name: "probe", archive: $a) {{ __typename {ERR} }} }}',
        # Past the task only for those who see it: then the archive (not even a zip) is what is refused.
        "401 hide hide ok ok 403 403 ok ok",
        ok_type="ArchiveRejectedError",
        upload=("a", "model.zip", b"not a zip"),
        prepare=lambda w, p: {"t": MAIN_TASK},
    ),
    Op(
        "saveLeaderboardConfig:hidden",
        "Mutation.saveLeaderboardConfig",
        "mutation($t: String!, $n: String!) { saveLeaderboardConfig(taskCode: $t, name: $n, metricWeights: "
        f"[{{metric: PERF, weight: 2}}]) {{ __typename ... on LeaderboardConfigSaved {{ name }} {ERR} }} }}",
        "401 hide hide ok ok ok 403 403 ok",
        ok_type="LeaderboardConfigSaved",
        prepare=lambda w, p: {"t": MAIN_TASK, "n": w.unique("weights ")},
        check=lambda w, p, v, a: same(v["name"], a["n"]),
    ),
    _owner_query("taskQuality", "query($t: String!) { taskQuality(taskCode: $t) { duplicatesRefused } }"),
    _owner_query("trainingRuns", "query($t: String!) { trainingRuns(taskCode: $t) { id } }"),
    _owner_query("campaigns", "query($t: String!) { campaigns(taskCode: $t) { id } }"),
    _owner_query("webhooks", "query($t: String!) { webhooks(taskCode: $t) { id } }"),
    _owner_query("flaggedExamples", "query($t: String!) { flaggedExamples(taskCode: $t) { edges { node { id } } } }"),
    Op(
        "node:Model:task",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on Model { id task { code } } } }",
        # A published model is public; its hidden task is null to whoever may not see it (as node(id:) of the task).
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Model", _published_model(w))},
        check=_task_of_model,
    ),
    Op(
        "roundStats:hidden",
        "Subscription.roundStats",
        "subscription($r: ID!) { roundStats(roundId: $r) { id } }",
        "hide hide hide ok ok ok 403 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, a: same(v, {"id": a["r"]}),
    ),
]


@pytest.fixture(scope="module")
def hidden_world(world):
    run_sql("UPDATE tasks SET status = 'HIDDEN' WHERE id = $1", world.ids["task"])
    return world


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix_hidden_tasks(hidden_world, op, principal):
    run_cell(hidden_world, op, principal)
