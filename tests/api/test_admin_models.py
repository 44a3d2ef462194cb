"""Admin pages, submissions (issue #18 point 5): a take-down unpublishes a model for good, removes it from every
leaderboard and from open rounds' targets (refused while it is a round's only target), tells its owner the reason,
is written to the audit log once, and is idempotent."""

from __future__ import annotations

import json

from tests.api.notifications_helpers import inbox
from tests.api.test_admin_users import AUDIT, ERR, gid
from tests.conftest import run_sql, seed_builtin_tasks

TAKE_DOWN = f"""mutation($m: ID!, $why: String!) {{ takeDownModel(modelId: $m, reason: $why) {{ __typename
  ... on ModelTakenDown {{ model {{ name published takenDownReason }} }} {ERR} }} }}"""
MODELS = """query($t: String, $n: Int! = 20, $a: String) { adminModels(taskCode: $t, first: $n, after: $a) {
  edges { node { id name taskCode owner status published takenDown takenDownReason } } pageInfo { hasNextPage endCursor } } }"""
BOARD = '{ leaderboard(taskCode: "sentiment") { totalCount edges { node { model { name } } } } }'
NODE = "query($m: ID!) { node(id: $m) { ... on Model { name published takenDownReason takenDownAt inTheLoop } } }"
PUBLISH = f"mutation($m: ID!) {{ publishModel(modelId: $m, published: true) {{ __typename {ERR} }} }}"


def _scored_model(owner: str, name: str) -> int:
    """An evaluated, published submission of `sentiment` with a score on its one scoring dataset (what the
    evaluation pipeline leaves; tests/api/test_models.py runs that pipeline for real)."""
    [task] = run_sql("SELECT id FROM tasks WHERE code = 'sentiment'")
    [user] = run_sql("SELECT id FROM users WHERE username = $1", owner)
    datasets = run_sql("SELECT id FROM datasets WHERE task = $1 AND access = 'scoring'", task["id"])
    if not datasets:
        datasets = run_sql(
            "INSERT INTO datasets (task, round, name, access, weight, created_at) "
            "VALUES ($1, NULL, 'admin-scoring', 'scoring', 1, now()) RETURNING id",
            task["id"],
        )
    [model] = run_sql(
        "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
        "anonymous, created_at) VALUES ($1, $2, $3, '{}', 'evaluated', '[]', $4, '1', true, false, now()) RETURNING id",
        task["id"],
        user["id"],
        name,
        f"submission_{name}",
    )
    run_sql(
        "INSERT INTO scores (model, dataset, perf, perf_by_tag, throughput, memory_gb, robustness, fairness, created_at) "
        "VALUES ($1, $2, 80, '{}', 100, 1, 0.8, 0.8, now())",
        model["id"],
        datasets[0]["id"],
    )
    return model["id"]


def _open_round(code: str, targets: list[dict]) -> int:
    """The task's open round judged by these targets (as setRoundTargets leaves it after its live checks)."""
    [row] = run_sql(
        "UPDATE rounds SET target_models = $2::jsonb WHERE task = (SELECT id FROM tasks WHERE code = $1) AND end_at IS NULL "
        "RETURNING id",
        code,
        json.dumps(targets),
    )
    return row["id"]


def _targets(round_id: int) -> list[dict]:
    return json.loads(run_sql("SELECT target_models::text AS t FROM rounds WHERE id = $1", round_id)[0]["t"])


def test_a_take_down_hides_the_model_everywhere_tells_its_owner_and_is_idempotent(api, admin_token):
    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    model_pk = _scored_model("researcher", "bad-model")
    model = gid("Model", model_pk)
    builtin = {"name": "sentiment_minilm", "version": "1"}
    submission = {"name": "submission_bad-model", "version": "1", "model_id": model_pk}
    round_id = _open_round("sentiment", [builtin, submission])
    assert api(BOARD)["leaderboard"]["totalCount"] == 1
    assert api(NODE, {"m": model}, token=researcher)["node"]["inTheLoop"] == [1]

    user = api.sign_up("bystander")
    assert api(TAKE_DOWN, {"m": model, "why": "x"}, token=user)["takeDownModel"]["__typename"] == "PermissionError"
    blank = api(TAKE_DOWN, {"m": model, "why": "  "}, token=admin_token)["takeDownModel"]
    assert blank["__typename"] == "InputError" and blank["fields"][0]["field"] == "reason"

    reason = "It copies the test set."
    done = api(TAKE_DOWN, {"m": model, "why": reason}, token=admin_token)["takeDownModel"]
    assert done == {
        "__typename": "ModelTakenDown",
        "model": {"name": "bad-model", "published": False, "takenDownReason": reason},
    }
    # Off every leaderboard: anonymous, the owner's own view and an admin's alike.
    for token in (None, researcher, admin_token):
        assert api(BOARD, token=token)["leaderboard"]["totalCount"] == 0
    assert _targets(round_id) == [builtin]
    seen = api(NODE, {"m": model}, token=researcher)["node"]
    assert seen["takenDownReason"] == reason and seen["takenDownAt"] and seen["inTheLoop"] == []
    assert api(NODE, {"m": model}, token=user)["node"] is None  # unpublished: hidden from others
    notes = [n for n in inbox(api, researcher)[0] if n["kind"] == "MODEL_TAKEN_DOWN"]
    assert len(notes) == 1 and "bad-model" in notes[0]["title"] and reason in notes[0]["body"]
    again = api(PUBLISH, {"m": model}, token=researcher)["publishModel"]
    assert again["__typename"] == "PermissionError" and "took this model down" in again["message"]

    # Idempotent: the same answer, no second notification nor audit row.
    repeat = api(TAKE_DOWN, {"m": model, "why": "Another reason."}, token=admin_token)["takeDownModel"]
    assert repeat["__typename"] == "ModelTakenDown" and repeat["model"]["takenDownReason"] == reason
    assert len([n for n in inbox(api, researcher)[0] if n["kind"] == "MODEL_TAKEN_DOWN"]) == 1
    rows = [e["node"] for e in api(AUDIT, {}, token=admin_token)["auditLog"]["edges"]]
    assert [(r["action"], r["targetType"], r["targetId"], r["targetLabel"], r["reason"]) for r in rows] == [
        ("MODEL_TAKEN_DOWN", "model", model, "bad-model", reason)
    ]
    listed = api(MODELS, {"t": "sentiment"}, token=admin_token)["adminModels"]["edges"]
    assert [e["node"] for e in listed] == [
        {
            "id": model,
            "name": "bad-model",
            "taskCode": "sentiment",
            "owner": "researcher",
            "status": "evaluated",
            "published": False,
            "takenDown": True,
            "takenDownReason": reason,
        }
    ]


def test_a_model_that_is_a_rounds_only_target_is_not_taken_down(api, admin_token):
    seed_builtin_tasks()
    api.sign_up("researcher")
    model_pk = _scored_model("researcher", "sole-judge")
    round_id = _open_round("sentiment", [{"name": "submission_sole-judge", "version": "1", "model_id": model_pk}])
    refused = api(TAKE_DOWN, {"m": gid("Model", model_pk), "why": "Broken."}, token=admin_token)["takeDownModel"]
    assert refused["__typename"] == "ConflictError"
    assert "only target of round 1 of the task 'sentiment'" in refused["message"]
    # Nothing changed: still published, still the round's target, on the leaderboard, no audit row.
    assert run_sql("SELECT published, taken_down_at FROM models WHERE id = $1", model_pk) == [
        {"published": True, "taken_down_at": None}
    ]
    assert len(_targets(round_id)) == 1 and api(BOARD)["leaderboard"]["totalCount"] == 1
    assert api(AUDIT, {}, token=admin_token)["auditLog"]["edges"] == []
    missing = api(TAKE_DOWN, {"m": gid("Model", 999999), "why": "x"}, token=admin_token)["takeDownModel"]
    assert missing["__typename"] == "NotFoundError"


def test_admin_models_pages_and_filters(api, admin_token):
    seed_builtin_tasks()
    api.sign_up("researcher")
    ids = [_scored_model("researcher", f"m{i}") for i in range(3)]
    first = api(MODELS, {"n": 2}, token=admin_token)["adminModels"]
    rest = api(MODELS, {"n": 2, "a": first["pageInfo"]["endCursor"]}, token=admin_token)["adminModels"]
    names = [e["node"]["name"] for e in first["edges"] + rest["edges"]]
    assert names == ["m2", "m1", "m0"] and first["pageInfo"]["hasNextPage"] and not rest["pageInfo"]["hasNextPage"]
    assert api(MODELS, {"t": "qa"}, token=admin_token)["adminModels"]["edges"] == []
    assert len(ids) == 3
