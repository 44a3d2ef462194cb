"""Authorization matrix, researchers' models, datasets, the leaderboard and retraining (see matrix.py and world.py).

Heavy operations use the cheapest real setup: an uploaded archive passes every check but its model.py fails
on import, so the deploy job fails within seconds; a retraining names a base model that does not exist, so
the job fails before training. An allowed cell asserts the operation was accepted (queued)."""

import io
import json
import time
import zipfile
from pathlib import Path

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import MAIN_TASK, SCRATCH_TARGET, SCRATCH_TASK, gid, pk_of
from tests.conftest import ROOT, run_sql

ERR = "... on Error { code message }"
TEMPLATE = ROOT / "triton_models" / "qa_overlap_baseline" / "config.pbtxt"


def _broken_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            "mx_upload/config.pbtxt", Path(TEMPLATE).read_text().replace('name: "qa_overlap_baseline"', 'name: "mx_upload"')
        )
        archive.writestr("mx_upload/1/model.py", "raise RuntimeError('this model never loads, on purpose')\n")
    return buffer.getvalue()


DATASET = "\n".join(
    json.dumps({"uid": f"r{i}", "statement": text, "label": label})
    for i, (text, label) in enumerate([("Have a lovely day.", "not_hateful"), ("The weather is fine today.", "not_hateful")])
).encode()


def _published(world, variables):
    return run_sql("SELECT published FROM models WHERE id = $1", pk_of(variables["m"]))


def _scratch_current(world, variables):
    return run_sql("SELECT current_round FROM tasks WHERE code = $1", SCRATCH_TASK)


def _run_status(run_pk):
    return run_sql("SELECT status FROM training_runs WHERE id = $1", run_pk)[0]["status"]


def _wait_for_failed_run(world, principal, variables):
    """The worker fails the queued run quickly (no such base model): then the task may be retrained again."""
    run_pk = run_sql("SELECT max(id) AS id FROM training_runs WHERE task = $1", world.ids["scratch"])[0]["id"]
    deadline = time.monotonic() + 120
    while _run_status(run_pk) != "failed":
        assert time.monotonic() < deadline, run_sql("SELECT status, status_log FROM training_runs WHERE id = $1", run_pk)
        time.sleep(0.2)


def _scratch_run(world, status):
    """A run of the scratch task as its job would leave it (no job behind it): queued, or rejected by the gate."""
    return run_sql(
        "INSERT INTO training_runs (task, requested_by, from_rounds, profile, status, progress, status_log, model_name, "
        "model_version, created_at) VALUES ($1, $2, '[1]', 'fast', $3, 0, '[]', $4, '1', now()) RETURNING id",
        world.ids["scratch"],
        world.user_pk["task_owner"],
        status,
        SCRATCH_TARGET,
    )[0]["id"]


def _run_row(world, variables):
    return run_sql(
        "SELECT status, cancel_requested, overridden_by, override_reason FROM training_runs WHERE id = $1",
        pk_of(variables["r"]),
    )


def _visible_datasets(world, principal):
    rows = run_sql("SELECT name, access FROM datasets WHERE task = $1 ORDER BY id", world.ids["task"])
    return [r["name"] for r in rows if r["access"] != "hidden" or world.owns_tasks(principal)]


def _check_upload(world, principal, value, _):
    same(value["model"]["status"], "uploaded")
    same(run_sql("SELECT owner FROM models WHERE id = $1", pk_of(value["model"]["id"]))[0]["owner"], world.user_pk[principal])


def _check_training(world, principal, value, _):
    same(value["run"]["status"], "queued")
    same(
        run_sql("SELECT requested_by FROM training_runs WHERE id = $1", pk_of(value["run"]["id"]))[0]["requested_by"],
        world.user_pk[principal],
    )


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "leaderboard",
        "Query.leaderboard",
        "query($t: String!) { leaderboard(taskCode: $t) { totalCount edges { node { rank } } metricWeights { metric } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: same((v["totalCount"], len({m["metric"] for m in v["metricWeights"]})), (len(v["edges"]), 5)),
    ),
    Op(
        "modelContract",
        "Query.modelContract",
        "query($t: String!) { modelContract(taskCode: $t) { kind labels inputs { name } exampleArchiveName } }",
        # Like the leaderboard: anyone may read a visible task's contract (tokens need the 'read' scope).
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: holds(v["kind"] in ("classification", "extractive_qa") and bool(v["inputs"]), v),
    ),
    Op(
        "datasets",
        "Query.datasets",
        "query($t: String!) { datasets(taskCode: $t) { name } }",
        # Everyone may list them; hidden datasets only reach the task's owners and admins.
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: same([d["name"] for d in v], _visible_datasets(w, p)),
    ),
    Op(
        "myModels",
        "Query.myModels",
        "{ myModels { id } }",
        "401 ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(
            [m["id"] for m in v],
            [gid("Model", r["id"]) for r in run_sql("SELECT id FROM models WHERE owner = $1 ORDER BY id DESC", w.user_pk[p])],
        ),
    ),
    Op(
        "trainingRuns",
        "Query.trainingRuns",
        "query($t: String!) { trainingRuns(taskCode: $t) { id } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": SCRATCH_TASK},
        check=lambda w, p, v, _: same(
            [r["id"] for r in v],
            [
                gid("TrainingRun", r["id"])
                for r in run_sql("SELECT id FROM training_runs WHERE task = $1 ORDER BY id DESC LIMIT 20", w.ids["scratch"])
            ],
        ),
    ),
    Op(
        "node:Model",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on Model { id published } } }",
        # An unpublished model: its owner and admins only.
        "hide ok hide hide ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Model", w.ids["model"])},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "published": False}),
    ),
    Op(
        "node:TrainingRun",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on TrainingRun { id status } } }",
        "hide hide hide ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("TrainingRun", w.ids["run"])},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "status": "published"}),
    ),
    Op(
        "uploadModel",
        "Mutation.uploadModel",
        "mutation($t: String!, $n: String!, $a: Upload!) { uploadModel(taskCode: $t, name: $n, archive: $a) { __typename "
        f"... on ModelUploaded {{ model {{ id status }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 403 ok ok",
        ok_type="ModelUploaded",
        upload=("a", "model.zip", _broken_archive()),
        prepare=lambda w, p: {"t": MAIN_TASK, "n": w.unique("upload ")},
        check=_check_upload,
    ),
    Op(
        "publishModel",
        "Mutation.publishModel",
        f"mutation($m: ID!) {{ publishModel(modelId: $m) {{ __typename ... on ModelChanged {{ model {{ id published }} }} {ERR} }} }}",
        # The model's owner (the annotator) and admins; the task's owner does not own researchers' models.
        "401 ok 403 403 ok 403 403 ok ok",
        ok_type="ModelChanged",
        prepare=lambda w, p: {"m": gid("Model", w.new_model("annotator"))},
        watch=_published,
        check=lambda w, p, v, a: same((v["model"], _published(w, a)), ({"id": a["m"], "published": True}, [{"published": True}])),
    ),
    Op(
        "createDataset",
        "Mutation.createDataset",
        "mutation($t: String!, $n: String!, $f: Upload!) { createDataset(taskCode: $t, name: $n, file: $f, access: STANDARD) { "
        f"__typename ... on DatasetCreated {{ exampleCount dataset {{ name }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="DatasetCreated",
        upload=("f", "data.jsonl", DATASET),
        prepare=lambda w, p: {"t": SCRATCH_TASK, "n": w.unique("dataset ")},
        check=lambda w, p, v, a: same(v, {"__typename": "DatasetCreated", "exampleCount": 2, "dataset": {"name": a["n"]}}),
    ),
    Op(
        "saveLeaderboardConfig",
        "Mutation.saveLeaderboardConfig",
        "mutation($t: String!, $n: String!) { saveLeaderboardConfig(taskCode: $t, name: $n, metricWeights: [{metric: PERF, weight: 2}]) { "
        f"__typename ... on LeaderboardConfigSaved {{ name }} {ERR} }} }}",
        # Any signed-in viewer may share a weighting of the public leaderboard, a READ token included.
        "401 ok ok ok ok ok 403 403 ok",
        ok_type="LeaderboardConfigSaved",
        prepare=lambda w, p: {"t": MAIN_TASK, "n": w.unique("weights ")},
        check=lambda w, p, v, a: same(
            (v["name"], run_sql("SELECT owner FROM leaderboard_configs WHERE name = $1", a["n"])),
            (a["n"], [{"owner": w.user_pk[p]}]),
        ),
    ),
    Op(
        "trainTargetModel",
        "Mutation.trainTargetModel",
        'mutation($t: String!) { trainTargetModel(taskCode: $t, fromRounds: [1], baseModel: "/nonexistent/base-model", '
        f"profile: FAST) {{ __typename ... on TrainingStarted {{ run {{ id status }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="TrainingStarted",
        prepare=lambda w, p: {"t": SCRATCH_TASK},
        check=_check_training,
        after=_wait_for_failed_run,
    ),
    Op(
        "openNextRound",
        "Mutation.openNextRound",
        'mutation($t: String!) { openNextRound(taskCode: $t, modelVersion: "1") { __typename '
        f"... on NextRoundOpened {{ round {{ number targetModels {{ name version }} }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="NextRoundOpened",
        prepare=lambda w, p: {"t": SCRATCH_TASK},
        watch=_scratch_current,
        check=lambda w, p, v, a: same(
            v["round"],
            {"number": _scratch_current(w, a)[0]["current_round"], "targetModels": [{"name": SCRATCH_TARGET, "version": "1"}]},
        ),
    ),
    Op(
        "cancelTrainingRun",
        "Mutation.cancelTrainingRun",
        "mutation($r: ID!) { cancelTrainingRun(runId: $r) { __typename "
        f"... on TrainingRunCancelled {{ run {{ status cancelRequested }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="TrainingRunCancelled",
        prepare=lambda w, p: {"r": gid("TrainingRun", _scratch_run(w, "queued"))},
        watch=_run_row,
        check=lambda w, p, v, a: same(v["run"], {"status": "cancelled", "cancelRequested": True}),
    ),
    Op(
        "overrideTrainingGate",
        "Mutation.overrideTrainingGate",
        'mutation($r: ID!) { overrideTrainingGate(runId: $r, reason: "the held-out set is too easy") { __typename '
        f"... on TrainingGateOverridden {{ run {{ status overriddenBy overrideReason }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="TrainingGateOverridden",
        prepare=lambda w, p: {"r": gid("TrainingRun", _scratch_run(w, "rejected"))},
        watch=_run_row,
        check=lambda w, p, v, a: same(
            v["run"],
            {"status": "published", "overriddenBy": w.username[p], "overrideReason": "the held-out set is too easy"},
        ),
    ),
    Op(
        "modelUpdated",
        "Subscription.modelUpdated",
        "subscription($m: ID!) { modelUpdated(modelId: $m) { id status } }",
        "401 ok 403 403 ok ok 403 403 ok",
        prepare=lambda w, p: {"m": gid("Model", w.ids["model"])},
        check=lambda w, p, v, a: same(v, {"id": a["m"], "status": "evaluated"}),
    ),
    Op(
        "trainingRunUpdated",
        "Subscription.trainingRunUpdated",
        "subscription($r: ID!) { trainingRunUpdated(runId: $r) { id status } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"r": gid("TrainingRun", w.ids["run"])},
        check=lambda w, p, v, a: same(v, {"id": a["r"], "status": "published"}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)


@pytest.fixture(scope="module", autouse=True)
def settle_deploys(world):
    """Let the worker finish failing this module's uploads before the next module truncates the tables."""
    yield
    unsettled = "SELECT name, status FROM models WHERE name LIKE 'upload %' AND status <> 'failed' ORDER BY name"
    deadline = time.monotonic() + 300
    while left := run_sql(unsettled):
        if time.monotonic() >= deadline:
            pytest.fail(f"the worker had not failed these uploads 300 s after the module's last test: {left}")
        time.sleep(0.5)
