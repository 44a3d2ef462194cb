"""The target models a new task can choose (issue #18): `servedTargetModels` lists what the target Triton serves,
with readiness, versions and build metadata, for whoever may create a task; the configs the PWA's task creation form
builds (pwa/src/owner/create/configs.json, checked against the builder by vitest) are accepted as they are, and a
round opens on a listed model."""

from __future__ import annotations

import json

from tests.conftest import ROOT, run_sql, target_triton

CONFIGS = json.loads((ROOT / "pwa" / "src" / "owner" / "create" / "configs.json").read_text())
SERVED = """query($kind: String, $task: String) { servedTargetModels(kind: $kind, taskCode: $task) {
  targets { name versions ready kind task inputs labels heldoutAccuracy heldoutF1 builtAt builtinTask usable }
  submissions { modelId name status readiness { ready } } } }"""
ERR = "... on InputError { fields { field message } } ... on Error { code message }"
CREATE_TASK = f"""mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename
  ... on TaskCreated {{ task {{ code status config }} }} {ERR} }} }}"""
CREATE_ROUND = f"""mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename
  ... on RoundCreated {{ round {{ number targetModels {{ name version status {{ ready }} }} }} }} {ERR} }} }}"""


def _by_name(data: dict) -> dict[str, dict]:
    return {t["name"]: t for t in data["servedTargetModels"]["targets"]}


def test_owners_see_the_served_models_with_readiness_and_build_metadata(api, target_models, community_model):
    token = api.sign_up("served-owner")
    served = _by_name(api(SERVED, {"kind": "classification"}, token=token))
    community = served[community_model]
    assert community["ready"] and community["versions"] == ["1"], community
    assert (community["kind"], community["task"], community["inputs"]) == ("classification", "sentiment", ["statement"])
    assert community["labels"] == ["negative", "positive", "neutral"]
    assert 0 < community["heldoutAccuracy"] <= 1 and community["builtAt"]
    # A non-admin may use the operator's model for a new task, not a built-in task's own model.
    assert (community["builtinTask"], community["usable"]) == (None, True)
    builtin = served[target_models["sentiment"]]
    assert (builtin["builtinTask"], builtin["usable"], builtin["ready"]) == ("sentiment", False, True)
    # Ready models come first; the kind filter follows the I/O contract (no QA model is loaded here). A model the shared
    # Triton is loading or unloading meanwhile (another test's) says nothing of its kind: listed, not ready, no kind.
    assert all(t["kind"] == "classification" for t in served.values() if t["ready"]), served
    assert all(t["kind"] is None for t in served.values() if not t["ready"]), served
    assert community_model not in _by_name(api(SERVED, {"kind": "extractive_qa"}, token=token))
    everything = _by_name(api(SERVED, {}, token=token))
    assert set(served) <= set(everything)

    # An admin may use any model.
    admin = api.sign_up("served-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'served-admin'")
    assert _by_name(api(SERVED, {"kind": "classification"}, token=admin))[target_models["sentiment"]]["usable"] is True


def test_an_unloaded_model_is_listed_as_not_ready(api, stack, community_model):
    token = api.sign_up("served-unloaded")
    client = target_triton(stack)
    client.unload_model(community_model)
    try:
        listed = _by_name(api(SERVED, {"kind": "classification"}, token=token))
        assert listed[community_model]["ready"] is False and listed[community_model]["versions"] == []
    finally:
        client.load_model(community_model)
        client.close()
    assert _by_name(api(SERVED, {}, token=token))[community_model]["ready"] is True


def test_who_may_list_them_and_a_tasks_published_submissions(api):
    anonymous = api.errors(SERVED, {})
    assert anonymous[0]["extensions"]["code"] == "AUTHENTICATION_REQUIRED"
    owner = api.sign_up("served-sub-owner")
    other = api.sign_up("served-other")
    created = api(CREATE_TASK, {"i": {"code": "served_task", "name": "Served", "config": CONFIGS["classification"]}}, token=owner)
    assert created["createTask"]["task"]["status"] == "PROPOSED", created
    [task] = run_sql("SELECT id FROM tasks WHERE code = 'served_task'")
    [user] = run_sql("SELECT id FROM users WHERE username = 'served-sub-owner'")
    ids = {}
    for name, status, published in (
        ("shown", "evaluated", True),
        ("unpublished", "evaluated", False),
        ("busy", "deployed", True),
    ):
        ids[name] = run_sql(
            "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
            "anonymous, created_at) VALUES ($1, $2, $3, '{}', $4, '[]', $5, '1', $6, false, now()) RETURNING id",
            task["id"],
            user["id"],
            name,
            status,
            f"submission_{name}",
            published,
        )[0]["id"]
    subs = api(SERVED, {"task": "served_task"}, token=owner)["servedTargetModels"]["submissions"]
    assert [(s["name"], s["status"], s["readiness"]["ready"]) for s in subs] == [("shown", "evaluated", False)]
    # A proposal is seen by its owners only: to anyone else it does not exist.
    hidden = api.errors(SERVED, {"task": "served_task"}, token=other)
    assert hidden[0]["extensions"]["code"] == "NOT_FOUND"
    assert api.errors(SERVED, {"task": "no_such_task"}, token=owner)[0]["extensions"]["code"] == "NOT_FOUND"
    assert api.errors(SERVED, {"kind": "regression"}, token=owner)[0]["extensions"]["code"] == "BAD_REQUEST"


def test_the_forms_configs_are_accepted_and_a_round_opens_on_a_listed_model(api, community_model):
    owner = api.sign_up("form-owner")
    for kind, config in CONFIGS.items():
        code = f"form_{kind}"
        created = api(CREATE_TASK, {"i": {"code": code, "name": kind, "config": config, "instructions": "# Hi"}}, token=owner)
        assert created["createTask"]["__typename"] == "TaskCreated", created
        stored = created["createTask"]["task"]["config"]  # as sent, with the defaults filled in
        assert (stored["kind"], stored["model_inputs"], stored.get("labels")) == (
            config["kind"],
            config["model_inputs"],
            config.get("labels"),
        )
        # Each field as sent (plain choices come back as {"value", "label"}).
        for sent, kept in zip(config["input_fields"], stored["input_fields"], strict=True):
            assert {k: kept[k] for k in sent if k != "choices"} == {k: v for k, v in sent.items() if k != "choices"}
            assert [c["value"] for c in kept.get("choices") or []] == sent.get("choices", [])
    served = _by_name(api(SERVED, {"kind": "classification"}, token=owner))[community_model]
    opened = api(
        CREATE_ROUND,
        {"i": {"taskCode": "form_classification", "targetModels": [{"name": served["name"], "version": served["versions"][0]}]}},
        token=owner,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["number"] == 1
    assert opened["round"]["targetModels"] == [{"name": community_model, "version": "1", "status": {"ready": True}}]
