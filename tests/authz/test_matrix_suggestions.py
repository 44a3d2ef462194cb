"""Authorization matrix, suggestions for the adversary (issue #31 point 4): asking for suggestions, writing an example
from one, and a round's numbers with and without them (see matrix.py and world.py).

Asking needs the annotate scope and a round of a task the caller may see (a public one here), like explainPrediction;
an example written from a suggestion is a createExample (same cells), recorded only when the suggestion was issued to
its author (tokens act as the admin, so theirs is the admin's). The module's world adds a sentiment task with the
perturbation search (created by the admin), one round judged by the suite's sentiment model (inserted by SQL) and one
context: the allowed cells really search against the model.
"""

import json
import uuid

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import gid
from tests.conftest import run_sql

ERR = "... on Error { code message }"
TASK = "mx_suggest"
LABELS = ["negative", "positive", "neutral"]
DRAFT = "The soup was wonderful."


def _config() -> dict:
    return {
        "kind": "classification",
        "context_fields": [{"name": "context", "max_length": 500}],
        "input_fields": [{"name": "statement", "max_length": 300}],
        "model_inputs": ["statement"],
        "labels": LABELS,
        "output_fields": ["label", "probs"],
        "fooling": {"metric": "exact_match"},
        "performance_metric": "accuracy",
        "suggestions": {"perturbation": True, "query_budget": 16},
    }


@pytest.fixture(scope="module", autouse=True)
def suggest_world(world, target_models):
    created = world.api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}",
        {"i": {"code": TASK, "name": "Matrix suggestions", "config": _config()}},
        token=world.bearer["admin"],
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = run_sql("SELECT id FROM tasks WHERE code = $1", TASK)[0]["id"]
    target = [{"name": target_models["sentiment"], "version": "1"}]
    world.ids["suggest_round"] = run_sql(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps(target),
    )[0]["id"]
    run_sql("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    world.ids["suggest_context"] = run_sql(
        "INSERT INTO contexts (round, fields, total_used, total_fooled, created_at) VALUES ($1, $2, 0, 0, now()) RETURNING id",
        world.ids["suggest_round"],
        json.dumps({"context": "Reviews of a restaurant."}),
    )[0]["id"]


def _suggest(world, principal):
    return {
        "i": {
            "roundId": gid("Round", world.ids["suggest_round"]),
            "contextId": gid("Context", world.ids["suggest_context"]),
            "kind": "PERTURBATION",
            "clientId": str(uuid.uuid4()),
            "fields": {"statement": DRAFT},
        }
    }


def _issued_to(world, variables):
    return run_sql('SELECT "user", kind FROM suggestions WHERE request_id = $1', uuid.UUID(variables["i"]["clientId"]))


def _check_suggested(world, principal, value, variables):
    found = value["suggestions"]
    holds(found and all(s["fields"]["statement"] != DRAFT for s in found), found)
    rows = _issued_to(world, variables)
    same({(r["user"], r["kind"]) for r in rows}, {(world.user_pk[world.self_of(principal)], "perturbation")})


def _from_suggestion(world, principal):
    """A suggestion issued (by SQL) to the account the cell acts as (anonymous: the annotator's), and an example
    written from it, edited."""
    account = world.user_pk[world.self_of(principal) if principal != "anonymous" else "annotator"]
    suggestion = run_sql(
        'INSERT INTO suggestions (request_id, position, "user", round, context, kind, source, source_version, fields) '
        "VALUES ($1, 0, $2, $3, $4, 'generator', 'generative_demo', '1', $5) RETURNING id",
        uuid.uuid4(),
        account,
        world.ids["suggest_round"],
        world.ids["suggest_context"],
        json.dumps({"statement": "The soup was cold."}),
    )[0]["id"]
    return {
        "_suggestion": suggestion,
        "i": {
            "roundId": gid("Round", world.ids["suggest_round"]),
            "contextId": gid("Context", world.ids["suggest_context"]),
            "fields": {"statement": "The soup was cold, sadly."},
            "label": "negative",
            "clientId": str(uuid.uuid4()),
            "suggestionId": gid("Suggestion", suggestion),
        },
    }


def _check_assisted(world, principal, value, variables):
    row = run_sql('SELECT "user", assisted_by FROM examples WHERE client_id = $1', uuid.UUID(variables["i"]["clientId"]))[0]
    assisted = json.loads(row["assisted_by"])
    same((row["user"], assisted["suggestion_id"], assisted["kind"], assisted["edited"]),
         (world.user_pk[world.self_of(principal)], variables["_suggestion"], "generator", True))  # fmt: skip
    same(value["example"]["assistance"], {"kind": "generator", "edited": True})


OPS = [
    Op(
        "suggestExamples",
        "Mutation.suggestExamples",
        f"mutation($i: SuggestExamplesInput!) {{ suggestExamples(input: $i) {{ __typename "
        f"... on SuggestionsIssued {{ suggestions {{ id fields target {{ label flipped }} }} }} {ERR} }} }}",
        # Like explainPrediction: the annotate scope, on a round the caller may see.
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="SuggestionsIssued",
        prepare=_suggest,
        watch=_issued_to,
        check=_check_suggested,
    ),
    Op(
        "createExample:suggested",
        "Mutation.createExample",
        f"mutation($i: CreateExampleInput!) {{ createExample(input: $i) {{ __typename "
        f"... on ExampleSubmitted {{ example {{ id assistance {{ kind edited }} }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="ExampleSubmitted",
        prepare=_from_suggestion,
        check=_check_assisted,
    ),
]


@pytest.mark.parametrize(("op", "principal"), cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
