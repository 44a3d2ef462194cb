"""Researchers are never at a dead end (issue #16 point 5): each built-in task ships a scoring dataset, seeded by
`dynabench migrate`, so a submission to a demo task is ranked; a task without one tells its owners, and a
submission there ends "Not ranked: no scoring dataset" (never "evaluated"), off the leaderboard, until a scoring
dataset is added, through createDataset or by the seed step (then a worker cron evaluates it)."""

import os
import subprocess
import sys

from server.evaluation.datasets.seed import SEED_DATASET_NAME, seed_dataset_path
from server.tasks.builtin import BUILTIN_CODES, BUILTIN_TASKS
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import create_dataset, model_status, tar_gz_of, upload_model
from tests.conftest import MODEL_CACHE, ROOT, run_sql, seed_builtin_tasks

NOTICE = (
    "This task has no scoring dataset yet: submissions cannot be ranked until you add one (on the task's owner page, "
    "under Datasets, upload one with access “Scoring”)."
)
TASK_SCORING = "query($c: String!) { task(code: $c) { hasScoringDataset scoringNotice } }"
DATASETS = "query($c: String!) { datasets(taskCode: $c) { name access exampleCount } }"
LEADERBOARD = """query($c: String!) { leaderboard(taskCode: $c) { totalCount
  edges { node { rank dynascore model { id name status } perDataset { dataset { name } perf } } } } }"""
PUBLISH = "mutation($m: ID!) { publishModel(modelId: $m) { __typename } }"
CREATE_TASK = """mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { code message } } }"""
# The sentiment task's I/O contract under another code: the built-in sentiment model is a valid submission to it.
REVIEWS_CONFIG = next(spec["config"] for spec in BUILTIN_TASKS if spec["code"] == "sentiment")


def board_rows(board: dict) -> dict:
    return {**board, "rows": [edge["node"] for edge in board["edges"]]}


def _seed_step() -> str:
    """The real seed step: `dynabench migrate` (migrations are applied already; the seed runs)."""
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "migrate"], cwd=ROOT, env=os.environ.copy(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _settled(api, token, model_id, statuses=("evaluated", "not_ranked", "failed")) -> dict:
    wait_until(lambda: model_status(api, token, model_id)["status"] in statuses, timeout=600, interval=1)
    return model_status(api, token, model_id)


def test_the_seed_step_ships_a_scoring_dataset_per_builtin_task_and_a_demo_submission_is_ranked(
    stack, api, target_models, admin_token
):
    assert "scoring datasets are seeded" in _seed_step()
    _seed_step()  # idempotent: adds nothing
    rows = run_sql(
        "SELECT t.code, d.name, d.access, count(*) FILTER (WHERE de.perturbation = 'original') AS n, count(*) AS total "
        "FROM datasets d JOIN tasks t ON t.id = d.task JOIN dataset_examples de ON de.dataset = d.id GROUP BY 1, 2, 3"
    )
    assert {r["code"] for r in rows} == set(BUILTIN_CODES) and len(rows) == len(BUILTIN_CODES)
    for row in rows:
        shipped = len(seed_dataset_path(row["code"]).read_text().splitlines())
        assert (row["name"], row["access"], row["n"]) == (SEED_DATASET_NAME, "scoring", shipped)
        assert row["total"] > row["n"]  # with its perturbed copies
    for code in BUILTIN_CODES:
        assert api(DATASETS, {"c": code})["datasets"] == [
            {
                "name": SEED_DATASET_NAME,
                "access": "SCORING",
                "exampleCount": len(seed_dataset_path(code).read_text().splitlines()),
            }
        ]
        assert api(TASK_SCORING, {"c": code}, token=admin_token)["task"] == {"hasScoringDataset": True, "scoringNotice": None}

    researcher = api.sign_up("researcher")
    archive = tar_gz_of(MODEL_CACHE / target_models["sentiment"])
    model_id = upload_model(api, researcher, "sentiment", "demo submission", archive)["model"]["id"]
    status = _settled(api, researcher, model_id)
    assert status["status"] == "evaluated", status["statusLog"]
    assert status["statusLog"][-1]["message"] == "Scores stored for 1 dataset(s)."
    [score] = status["scores"]
    assert score["dataset"]["name"] == SEED_DATASET_NAME and 0 < score["perf"] <= 100
    assert 0 <= score["robustness"] <= 1 and score["throughput"] > 0
    tags = api("query($m: ID!) { node(id: $m) { ... on Model { scores { perfByTag } } } }", {"m": model_id}, token=researcher)[
        "node"
    ]["scores"][0]["perfByTag"]
    assert {"restaurants", "movies", "negation"} <= set(tags), tags

    assert api(PUBLISH, {"m": model_id}, token=researcher)["publishModel"]["__typename"] == "ModelChanged"
    board = board_rows(api(LEADERBOARD, {"c": "sentiment"})["leaderboard"])
    assert board["totalCount"] == 1
    [row] = board["rows"]
    assert (row["rank"], row["model"]["id"], row["model"]["status"]) == (1, model_id, "evaluated")
    assert row["perDataset"] == [{"dataset": {"name": SEED_DATASET_NAME}, "perf": score["perf"]}]


def test_a_task_without_scoring_dataset_warns_its_owner_and_ranks_a_submission_once_one_is_added(
    stack, api, target_models, admin_token
):
    owner = api.sign_up("owner")
    stranger = api.sign_up("stranger")
    created = api(CREATE_TASK, {"i": {"code": "reviews", "name": "Reviews", "config": REVIEWS_CONFIG}}, token=owner)
    assert created["createTask"]["__typename"] == "TaskCreated", created
    approved = api('mutation { approveTask(taskCode: "reviews", note: "") { __typename } }', token=admin_token)
    assert approved["approveTask"]["__typename"] == "TaskApproved"  # a proposal until then: seen by its owners only
    assert api(TASK_SCORING, {"c": "reviews"}, token=owner)["task"] == {"hasScoringDataset": False, "scoringNotice": NOTICE}
    assert api(TASK_SCORING, {"c": "reviews"}, token=admin_token)["task"]["scoringNotice"] == NOTICE
    # Only the task's owners are told what to do; everyone can see whether it has a scoring dataset.
    assert api(TASK_SCORING, {"c": "reviews"}, token=stranger)["task"] == {"hasScoringDataset": False, "scoringNotice": None}
    assert api(TASK_SCORING, {"c": "reviews"})["task"] == {"hasScoringDataset": False, "scoringNotice": None}

    archive = tar_gz_of(MODEL_CACHE / target_models["sentiment"])
    model_id = upload_model(api, stranger, "reviews", "early submission", archive)["model"]["id"]
    status = _settled(api, stranger, model_id)
    assert status["status"] == "not_ranked", status["statusLog"]
    assert status["statusLog"][-1] == {"status": "not_ranked", "message": "Not ranked: no scoring dataset"}
    assert "evaluated" not in {e["status"] for e in status["statusLog"]}
    assert status["scores"] == []
    assert api(PUBLISH, {"m": model_id}, token=stranger)["publishModel"]["__typename"] == "ModelChanged"
    assert api(LEADERBOARD, {"c": "reviews"})["leaderboard"] == {"totalCount": 0, "edges": []}
    assert api(LEADERBOARD, {"c": "reviews"}, token=stranger)["leaderboard"]["totalCount"] == 0

    # A non-scoring dataset changes nothing; a scoring one evaluates the waiting submission.
    rows = seed_dataset_path("sentiment").read_bytes()
    assert create_dataset(api, owner, "reviews", "extra", rows, access="STANDARD")["__typename"] == "DatasetCreated"
    assert api(TASK_SCORING, {"c": "reviews"}, token=owner)["task"]["scoringNotice"] == NOTICE
    assert model_status(api, stranger, model_id)["status"] == "not_ranked"
    assert create_dataset(api, owner, "reviews", "reviews-scoring", rows)["__typename"] == "DatasetCreated"
    assert api(TASK_SCORING, {"c": "reviews"}, token=owner)["task"] == {"hasScoringDataset": True, "scoringNotice": None}
    status = _settled(api, stranger, model_id, ("evaluated", "failed"))
    assert status["status"] == "evaluated", status["statusLog"]
    after = [e["status"] for e in status["statusLog"]]
    assert after[after.index("not_ranked") :][:2] == ["not_ranked", "deployed"], after
    assert [s["dataset"]["name"] for s in status["scores"]] == ["reviews-scoring"]
    board = board_rows(api(LEADERBOARD, {"c": "reviews"})["leaderboard"])
    assert board["totalCount"] == 1 and board["rows"][0]["model"]["id"] == model_id and board["rows"][0]["rank"] == 1


def test_a_submission_not_ranked_before_the_seed_step_is_evaluated_on_the_shipped_dataset(stack, api, target_models):
    # An install upgraded to shipped datasets: the tasks exist (no dataset yet) and hold a not ranked submission.
    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    archive = tar_gz_of(MODEL_CACHE / target_models["nli"])
    model_id = upload_model(api, researcher, "nli", "waiting", archive)["model"]["id"]
    assert _settled(api, researcher, model_id)["status"] == "not_ranked"
    # The seed step adds the shipped datasets without queueing anything (it runs without Redis in compose);
    # the worker's cron finds the not ranked submission and evaluates it.
    _seed_step()
    status = _settled(api, researcher, model_id, ("evaluated", "failed"))
    assert status["status"] == "evaluated", status["statusLog"]
    assert [s["dataset"]["name"] for s in status["scores"]] == [SEED_DATASET_NAME]
    assert any(e["message"] == "The task has a scoring dataset now: evaluation queued." for e in status["statusLog"])
    board = board_rows(api(LEADERBOARD, {"c": "nli"}, token=researcher)["leaderboard"])
    assert [r["model"]["id"] for r in board["rows"]] == [model_id]
