"""A new task owner goes from an idea to a running round alone (issue #29): the served models they cannot use say why
before they try; an admin shares a built-in model with every owner (audited); the owner then opens a round with it,
and loses nothing when the admin stops sharing (open rounds keep their targets)."""

from __future__ import annotations

from tests.api.test_served_models import CONFIGS, CREATE_ROUND, CREATE_TASK
from tests.conftest import run_sql, seed_builtin_tasks

SERVED = """query { servedTargetModels(kind: "classification") {
  targets { name ready builtinTask shared usable unusableReason } } }"""
SHARE = """mutation($n: String!, $s: Boolean!) { shareTargetModel(name: $n, shared: $s) { __typename
  ... on TargetModelShared { name shared } ... on Error { code message } } }"""
AUDIT = "{ auditLog(first: 10) { edges { node { action targetType targetId targetLabel actor } } } }"


def _served(api, token) -> dict[str, dict]:
    return {t["name"]: t for t in api(SERVED, token=token)["servedTargetModels"]["targets"]}


def _open_round(api, token, code: str, model: str) -> dict:
    return api(CREATE_ROUND, {"i": {"taskCode": code, "targetModels": [{"name": model}]}}, token=token)["createRound"]


def test_an_owner_opens_a_round_with_a_model_an_admin_shared(api, admin_token, target_models):
    seed_builtin_tasks()
    owner = api.sign_up("idea-owner")
    builtin = target_models["sentiment"]
    created = api(CREATE_TASK, {"i": {"code": "reviews", "name": "Reviews", "config": CONFIGS["classification"]}}, token=owner)
    assert created["createTask"]["__typename"] == "TaskCreated", created

    # Before: listed, ready, not usable, and the reason is given before the owner tries.
    listed = _served(api, owner)[builtin]
    assert (listed["ready"], listed["usable"], listed["shared"], listed["builtinTask"]) == (True, False, False, "sentiment")
    assert "until an admin shares it with every task owner" in listed["unusableReason"]
    refused = _open_round(api, owner, "reviews", builtin)
    assert refused["code"] == "FORBIDDEN" and refused["message"] == listed["unusableReason"]

    # Only an admin shares; a served name is needed; sharing twice changes nothing and is audited once.
    assert api(SHARE, {"n": builtin, "s": True}, token=owner)["shareTargetModel"]["__typename"] == "PermissionError"
    assert api(SHARE, {"n": builtin, "s": True})["shareTargetModel"]["__typename"] == "AuthenticationError"
    missing = api(SHARE, {"n": "no_such_model", "s": True}, token=admin_token)["shareTargetModel"]
    assert missing["__typename"] == "NotFoundError", missing
    bad = api(SHARE, {"n": "x" * 201, "s": True}, token=admin_token)["shareTargetModel"]
    assert bad["__typename"] == "InputError", bad
    for _ in range(2):
        shared = api(SHARE, {"n": f" {builtin} ", "s": True}, token=admin_token)["shareTargetModel"]
        assert shared == {"__typename": "TargetModelShared", "name": builtin, "shared": True}
    entries = [e["node"] for e in api(AUDIT, token=admin_token)["auditLog"]["edges"]]
    assert [(e["action"], e["targetType"], e["targetId"], e["targetLabel"]) for e in entries] == [
        ("TARGET_SHARED", "target_model", None, builtin)
    ]

    # After: usable by the owner, who opens the first round with it.
    listed = _served(api, owner)[builtin]
    assert (listed["usable"], listed["shared"], listed["unusableReason"]) == (True, True, None)
    opened = _open_round(api, owner, "reviews", builtin)
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["targetModels"][0]["name"] == builtin

    # Unsharing: the open round keeps its target; a new round is refused again.
    assert api(SHARE, {"n": builtin, "s": False}, token=admin_token)["shareTargetModel"]["shared"] is False
    [row] = run_sql("SELECT target_models FROM rounds WHERE task = (SELECT id FROM tasks WHERE code = 'reviews')")
    assert builtin in str(row["target_models"])
    assert _open_round(api, owner, "reviews", builtin)["code"] == "FORBIDDEN"
    assert run_sql("SELECT count(*) AS n FROM admin_audit WHERE action = 'target_unshared'")[0]["n"] == 1
