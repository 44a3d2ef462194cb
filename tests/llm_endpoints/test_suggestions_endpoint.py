"""Suggestions whose generator is an LLM endpoint (issue #31 point 4, docs/design.md §4.1e), against a real
`transformers serve`: the candidates name the endpoint as their source, the call is counted in the endpoint's usage for
the author and the task, and once the author's daily budget is spent the next request is a clear MODEL_UNAVAILABLE
that names the budget, with nothing stored."""

from __future__ import annotations

import uuid

from tests.api.examples_helpers import NEXT_CONTEXT
from tests.conftest import run_sql
from tests.llm_endpoints.helpers import register, usage_rows, user_id

SUGGEST = """mutation($i: SuggestExamplesInput!) { suggestExamples(input: $i) { __typename
  ... on SuggestionsIssued { suggestions { id source fields } } ... on Error { code message } } }"""
CONFIG = {
    "kind": "classification",
    "context_fields": [{"name": "context", "max_length": 500}],
    "input_fields": [{"name": "statement", "max_length": 300}],
    "model_inputs": ["statement"],
    "labels": ["negative", "positive", "neutral"],
    "output_fields": ["label", "probs"],
    "fooling": {"metric": "exact_match"},
    "performance_metric": "accuracy",
    "suggestions": {"generator": {"endpoint": "inspire-llm", "max_tokens": 16, "temperature": 0.0}},
}


def test_an_endpoint_generator_is_counted_and_its_budget_holds(stack, api, admin_token, llm_server, target_models):
    register(api, admin_token, name="inspire-llm", baseUrl=llm_server.base_url, model=llm_server.model, tokensPerUserPerDay=8)
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on InputError { fields { field } } } }",
        {"i": {"code": "inspirellm", "name": "Inspired by an LLM", "config": CONFIG}},
        token=admin_token,
    )["createTask"]
    assert created["__typename"] == "TaskCreated", created
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } } } }",
        {"i": {"taskCode": "inspirellm", "targetModels": [{"name": target_models["sentiment"]}]}},
        token=admin_token,
    )["createRound"]
    round_id = opened["round"]["id"]
    api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Reviews of a hotel by the sea."}}]}},
        token=admin_token,
    )
    writer = api.sign_up("endpoint_inspired")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]

    def suggest():
        variables = {"i": {"roundId": round_id, "contextId": context_id, "kind": "GENERATOR", "clientId": str(uuid.uuid4())}}
        return api(SUGGEST, variables, token=writer)["suggestExamples"]

    issued = suggest()
    assert issued["__typename"] == "SuggestionsIssued", issued
    assert all(s["source"] == "endpoint:inspire-llm" for s in issued["suggestions"])
    task = run_sql("SELECT id FROM tasks WHERE code = 'inspirellm'")[0]["id"]
    (usage,) = usage_rows("inspire-llm")
    assert (usage["user"], usage["task"], usage["calls"]) == (user_id("endpoint_inspired"), task, 1)
    assert usage["completion_tokens"] > 0

    # The author's daily budget (8 tokens) is spent: a clear refusal naming it, nothing stored, nothing called.
    stored = run_sql("SELECT count(*) AS n FROM suggestions")[0]["n"]
    refused = suggest()
    assert refused["__typename"] == "ModelUnavailableError", refused
    assert "budget" in refused["message"], refused
    assert run_sql("SELECT count(*) AS n FROM suggestions")[0]["n"] == stored
    assert usage_rows("inspire-llm")[0]["calls"] == 1
