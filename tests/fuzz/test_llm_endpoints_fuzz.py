"""Fuzzing the LLM endpoint mutations (issue #30 point 4): registerLlmEndpoint, updateLlmEndpoint and
removeLlmEndpoint. Nobody in the fuzz world is an admin, so every case must be refused cleanly and write nothing (the
harness compares the database before and after, llm_endpoints and generation_usage included); tests/llm_endpoints/
covers what admins do, and tests/unit/test_llm_endpoint_rules.py every setting's rule.

And the query a task's owners choose a round's target with, llmEndpointChoices(taskCode): every viewer of the world
with plausible and junk codes; only a task's owners get a list (the enabled endpoints for alice's generative task
`llmgen`, none for the other kinds), everyone else a typed refusal, and nothing is written."""

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.api.conversations_helpers import generative_config
from tests.fuzz.conftest import FUZZ
from tests.fuzz.harness import assert_clean, json_body
from tests.fuzz.junk import INVALID_UTF8, junk_strings, weighted, wrong_type
from tests.fuzz.plausible import Ref, codes
from tests.fuzz.strategies import VIEWERS, Case, cases

SETTINGS = {"name": "fuzz-llm", "baseUrl": "http://127.0.0.1:9/v1", "model": "m", "apiKey": "sk-fuzz"}


@FUZZ
@example(Case("registerLlmEndpoint", "alice", {"input": SETTINGS}))
@example(Case("registerLlmEndpoint", "alice:token", {"input": {**SETTINGS, "baseUrl": "https://u:p@h/v1"}}))
@example(Case("registerLlmEndpoint", "anonymous", {"input": {**SETTINGS, "apiKey": "sk\r\nX-Evil: 1", "timeoutS": -1}}))
@example(Case("registerLlmEndpoint", "carol:token", {"input": {**SETTINGS, "name": INVALID_UTF8}}))
@given(case=cases("registerLlmEndpoint"))
def test_register_llm_endpoint(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("updateLlmEndpoint", "bob", {"input": {"name": "fuzz-llm", "apiKey": ""}}))
@example(Case("updateLlmEndpoint", "alice:token", {"input": {"name": "\x00", "maxConcurrency": 2**40}}))
@example(Case("updateLlmEndpoint", "garbage", {"input": {"name": "fuzz-llm", "pricePer1kPromptTokens": 1e308}}))
@given(case=cases("updateLlmEndpoint"))
def test_update_llm_endpoint(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("removeLlmEndpoint", "carol", {"name": "fuzz-llm"}))
@example(Case("removeLlmEndpoint", "expired", {"name": "x" * 10_000}))
@given(case=cases("removeLlmEndpoint"))
def test_remove_llm_endpoint(fuzzer, case):
    fuzzer.send(case)


CHOICES = (
    "query($t: String!) { llmEndpointChoices(taskCode: $t) { name model timeoutS tokensPerUserPerDay tokensPerTaskPerDay } }"
)
# Typed refusals: not signed in, a bad credential, not an owner, no such task; a variable that is not valid Unicode.
REFUSED = {"AUTHENTICATION_REQUIRED", "AUTHENTICATION_FAILED", "FORBIDDEN", "NOT_FOUND", "INVALID_INPUT", "RATE_LIMITED"}


@pytest.fixture(scope="module")
def choices_world(world):
    """alice's generative task `llmgen` (public: created while she is an admin), an enabled and a disabled endpoint;
    {code: owners' usernames} of every task."""
    world.db.fetch("UPDATE users SET is_admin = true WHERE username = 'alice'")
    created = world.gql(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "llmgen", "name": "Task llmgen", "config": generative_config()}},
        "alice",
    )
    world.db.fetch("UPDATE users SET is_admin = false WHERE username = 'alice'")
    assert created["createTask"]["__typename"] == "TaskCreated", created
    world.refs["code:llmgen"] = "llmgen"
    for name, enabled in (("fuzz-on", True), ("fuzz-off", False)):
        world.db.fetch(
            "INSERT INTO llm_endpoints (name, base_url, model, enabled) VALUES ($1, 'http://10.9.8.7/v1', 'm', $2)", name, enabled
        )
    owners: dict[str, set[str]] = {}
    for row in world.db.fetch(
        'SELECT t.code, u.username FROM task_owners o JOIN tasks t ON t.id = o.task JOIN users u ON u.id = o."user"'
    ):
        owners.setdefault(row["code"], set()).add(row["username"])
    return owners


task_codes = weighted((6, codes), (2, st.just(Ref("code:llmgen"))), (3, junk_strings), (1, wrong_type), (1, st.none()))


@FUZZ
@example(viewer="alice", code=Ref("code:llmgen"))
@example(viewer="alice:token", code=Ref("code:alpha"))
@example(viewer="bob", code=Ref("code:llmgen"))
@example(viewer="carol:token", code=Ref("code:llmgen"))
@example(viewer="anonymous", code=INVALID_UTF8)
@given(viewer=st.sampled_from(VIEWERS), code=task_codes)
def test_llm_endpoint_choices(world, choices_world, viewer, code):
    before = world.db.fingerprint()
    headers = {"content-type": "application/json"}
    if world.tokens.get(viewer):
        headers["Authorization"] = f"Bearer {world.tokens[viewer]}"
    sent = world.resolve(code)
    response = world.http.post("/graphql", content=json_body({"query": CHOICES, "variables": {"t": sent}}), headers=headers)
    assert response.status_code < 500, (response.status_code, response.text[:300], viewer, code)
    assert world.db.fingerprint() == before, (viewer, code)
    if response.status_code >= 400:
        return
    body = response.json()
    if body.get("errors"):
        assert_clean([error.get("message") for error in body["errors"]], (viewer, code))
        assert not (body.get("data") or {}).get("llmEndpointChoices"), body
        codes_given = {(error.get("extensions") or {}).get("code") for error in body["errors"]}
        assert codes_given <= REFUSED | {None}, body  # None: GraphQL validation (a value of the wrong type)
        return
    username = viewer.split(":")[0]
    assert viewer in ("alice", "bob", "alice:token") and username in choices_world.get(sent, set()), (viewer, code, body)
    listed = body["data"]["llmEndpointChoices"]
    if sent == "llmgen":
        assert [c["name"] for c in listed] == ["fuzz-on"] and "10.9.8.7" not in json.dumps(listed), listed
    else:
        assert listed == [], listed
