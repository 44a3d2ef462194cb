"""A task's owners choose an LLM endpoint as a generative round's target (issue #30): `llmEndpointChoices(taskCode)`
lists the enabled endpoints (name, model, limits; not the address, the key nor whether there is one) to the task's
owners and admins, and none for a task of another kind; the owner opens a round with one of them as its target (a real
`transformers serve` answers the smoke request) and sets it again with setRoundTargets; a disabled one is refused with
the reason. A signed-in user who owns no task, the owner of another task and an anonymous caller cannot list them."""

from __future__ import annotations

import uuid

from tests.api.conversations_helpers import generative_config
from tests.conftest import seed_builtin_tasks
from tests.llm_endpoints.helpers import register

KEY = "sk-choices-" + uuid.uuid4().hex
CHOICES = """query($t: String!) { llmEndpointChoices(taskCode: $t) { name model timeoutS tokensPerUserPerDay
  tokensPerTaskPerDay } }"""
ROUND = "round { id number targetModels { name version status { ready } } }"
FIELDS = "... on InputError { fields { field message } } ... on Error { code message }"
CREATE_ROUND = f"""mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ {ROUND} }}
  {FIELDS} }} }}"""
SET_TARGETS = f"""mutation($i: SetRoundTargetsInput!) {{ setRoundTargets(input: $i) {{ __typename
  ... on RoundTargetsSet {{ {ROUND} }} {FIELDS} }} }}"""
CURRENT = "query($c: String!) { task(code: $c) { currentRound { number targetModels { name version } } } }"


def _generative_task(api, admin_token: str, code: str, owner: str) -> None:
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }",
        {"i": {"code": code, "name": f"Pick an LLM ({code})", "config": generative_config(max_tokens=8)}},
        admin_token,
    )["createTask"]
    assert created["__typename"] == "TaskCreated", created
    added = api(
        "mutation($c: String!, $u: String!) { addTaskOwner(taskCode: $c, username: $u) { __typename } }",
        {"c": code, "u": owner},
        admin_token,
    )["addTaskOwner"]
    assert added["__typename"] == "TaskOwnerAdded", added


def _refusal(api, token: str | None, code: str) -> str:
    [error] = api.errors(CHOICES, {"t": code}, token)
    return error["extensions"]["code"]


def test_an_owner_lists_the_enabled_endpoints_and_opens_a_round_on_one(api, admin_token, llm_server):
    seed_builtin_tasks()
    register(
        api,
        admin_token,
        name="chosen-llm",
        baseUrl=llm_server.base_url,
        model=llm_server.model,
        apiKey=KEY,
        tokensPerTaskPerDay=50_000,
    )
    register(api, admin_token, name="off-llm", baseUrl=llm_server.base_url, model=llm_server.model, enabled=False)
    owner, stranger, other_owner = api.sign_up("pick_owner"), api.sign_up("pick_stranger"), api.sign_up("other_owner")
    _generative_task(api, admin_token, "pickllm", "pick_owner")
    _generative_task(api, admin_token, "otherllm", "other_owner")

    expected = [
        {
            "name": "chosen-llm",
            "model": llm_server.model,
            "timeoutS": 30.0,
            "tokensPerUserPerDay": 0,
            "tokensPerTaskPerDay": 50_000,
        }
    ]
    answer = api.raw(CHOICES, {"t": "pickllm"}, owner)
    assert answer.json() == {"data": {"llmEndpointChoices": expected}}
    assert KEY not in answer.text and llm_server.base_url not in answer.text and "hasKey" not in answer.text
    assert api(CHOICES, {"t": "pickllm"}, admin_token)["llmEndpointChoices"] == expected
    assert api(CHOICES, {"t": "otherllm"}, other_owner)["llmEndpointChoices"] == expected
    # A classification task: an endpoint cannot judge its examples, so there is nothing to choose.
    assert api(CHOICES, {"t": "sentiment"}, admin_token)["llmEndpointChoices"] == []

    assert _refusal(api, stranger, "pickllm") == "FORBIDDEN"
    assert _refusal(api, other_owner, "pickllm") == "FORBIDDEN"
    assert _refusal(api, None, "pickllm") == "AUTHENTICATION_REQUIRED"
    assert _refusal(api, owner, "no_such_task") == "NOT_FOUND"

    # The owner names the listed endpoint as the first round's target.
    opened = api(CREATE_ROUND, {"i": {"taskCode": "pickllm", "targetModels": [{"endpoint": expected[0]["name"]}]}}, owner)
    opened = opened["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    target = {"name": "endpoint:chosen-llm", "version": "", "status": {"ready": True}}
    assert opened["round"]["targetModels"] == [target]
    current = api(CURRENT, {"c": "pickllm"}, owner)["task"]["currentRound"]
    assert current == {"number": 1, "targetModels": [{"name": "endpoint:chosen-llm", "version": ""}]}

    # A disabled endpoint is not listed, and naming it anyway is refused with the reason.
    refused = api(SET_TARGETS, {"i": {"roundId": opened["round"]["id"], "targetModels": [{"endpoint": "off-llm"}]}}, owner)
    refused = refused["setRoundTargets"]
    assert refused["__typename"] == "InputError", refused
    assert "switched off by an admin" in refused["fields"][0]["message"]
    kept = api(SET_TARGETS, {"i": {"roundId": opened["round"]["id"], "targetModels": [{"endpoint": "chosen-llm"}]}}, owner)
    assert kept["setRoundTargets"]["__typename"] == "RoundTargetsSet", kept
    assert kept["setRoundTargets"]["round"]["targetModels"] == [target]

    # Another user may neither list the endpoints nor open the task's rounds on one.
    theirs = api(CREATE_ROUND, {"i": {"taskCode": "pickllm", "targetModels": [{"endpoint": "chosen-llm"}]}}, stranger)
    assert theirs["createRound"]["__typename"] == "PermissionError", theirs
