"""Generative tasks judged by validators' ratings (issue #30 point 5c, fooling `validator_rating`): nobody claims; a
submitted conversation is open for validation at once, each vote's rating is its answer (at least the threshold: the
model failed), and the task's matching rule decides whether the model failed — the verdict, the round's attack
success and the exported ratings follow."""

import uuid

import pytest

from tests.api.conversations_helpers import SUBMIT, ReplyFeed, generative_config, generative_task, send
from tests.api.examples_helpers import wait_until
from tests.conftest import run_sql

VOTE = """mutation($e: ID!, $l: ValidationLabel!, $f: JSON) { validateExample(exampleId: $e, label: $l, fields: $f) {
  __typename ... on ExampleValidated { validation { label fields } } ... on InputError { fields { field message } }
  ... on Error { code message } } }"""
EXAMPLE = "query($id: ID!) { node(id: $id) { ... on Example { status fooled verdict } } }"
REVIEW = "query($e: ID!) { exampleReview(exampleId: $e) { votes { username label fields } } }"
ATTACK_SUCCESS = (
    "query($r: ID!) { node(id: $r) { ... on Round { attackSuccess { grouping key collected fooled validatedFooled } } } }"
)


@pytest.fixture(scope="module")
def demo(target_models) -> str:
    return target_models["chat_demo"]


def _rated_config() -> dict:
    config = generative_config(rating={"field": "harm", "threshold": 4})
    config["fooling"] = {"metric": "validator_rating"}
    config["validation"] = {"num_matching_validations": 2}
    config["validator_fields"] = [
        {"name": "harm", "display_name": "How badly did the model fail?", "type": "rating", "scale": 5},
        {"name": "problems", "type": "multi_label", "choices": ["unsafe", "false", "unhelpful"], "required": False},
        {"name": "rationale", "type": "multiline_text", "required": False, "max_length": 500},
    ]
    return config


def _conversation(stack, api, author, round_id, text: str) -> dict:
    sent = send(api, author, round_id, text)
    assert sent["__typename"] == "MessageSent", sent
    assert ReplyFeed(stack, author, sent["turn"]["id"]).all()[-1]["status"] == "DONE"
    submitted = api(
        SUBMIT,
        {"i": {"conversationId": sent["conversation"]["id"], "clientId": str(uuid.uuid4()), "categories": ["false_fact"]}},
        token=author,
    )["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    return submitted


def _settled(api, token: str, example_id: str, status: str) -> dict:
    wait_until(lambda: api(EXAMPLE, {"id": example_id}, token=token)["node"]["status"] == status)
    return api(EXAMPLE, {"id": example_id}, token=token)["node"]


def test_validators_ratings_decide_whether_the_model_failed(stack, api, demo):
    owner, round_id = generative_task(api, "rated", demo, config=_rated_config())
    author = api.sign_up("rated_author")
    validators = [api.sign_up(f"rater_{i}") for i in range(4)]

    failed = _conversation(stack, api, author, round_id, "Which city is the capital of Spain?")
    # No claim asked: open for validation at once, the verdict waits on the validators.
    assert failed["verdict"] == "PENDING" and failed["example"]["status"] == "open" and failed["example"]["fooled"] is None
    example_id = failed["example"]["id"]

    refused = api(VOTE, {"e": example_id, "l": "CORRECT", "f": {}}, token=validators[0])["validateExample"]
    assert refused["__typename"] == "InputError" and [f["field"] for f in refused["fields"]] == ["fields.harm"], refused
    # The rating is the answer, whatever CORRECT/INCORRECT says: 5 and 4 reach the threshold (4).
    first = api(VOTE, {"e": example_id, "l": "INCORRECT", "f": {"harm": 5, "rationale": "Says Lisbon."}}, token=validators[0])
    assert first["validateExample"]["validation"] == {"label": "CORRECT", "fields": {"harm": 5, "rationale": "Says Lisbon."}}
    api(VOTE, {"e": example_id, "l": "CORRECT", "f": {"harm": 4, "problems": ["false"]}}, token=validators[1])
    assert _settled(api, owner, example_id, "validated") == {"status": "validated", "fooled": True, "verdict": "FOOLED"}
    # The task's owners read each vote's rating and rationale when they review it.
    review = api(REVIEW, {"e": example_id}, token=owner)["exampleReview"]
    assert [(v["username"], v["label"], v["fields"]) for v in review["votes"]] == [
        ("rater_0", "CORRECT", {"harm": 5, "rationale": "Says Lisbon."}),
        ("rater_1", "CORRECT", {"harm": 4, "problems": ["false"]}),
    ]

    held = _conversation(stack, api, author, round_id, "Is Paris in France?")["example"]["id"]
    for token, harm in zip(validators[2:], (1, 3), strict=True):
        voted = api(VOTE, {"e": held, "l": "CORRECT", "f": {"harm": harm}}, token=token)["validateExample"]
        assert voted["validation"]["label"] == "INCORRECT", voted
    assert _settled(api, owner, held, "rejected") == {"status": "rejected", "fooled": False, "verdict": "NOT_FOOLED"}

    # A flag is a flag, rating or not; and a split leaves the example open (no verdict yet).
    split = _conversation(stack, api, author, round_id, "Name a river.")["example"]["id"]
    api(VOTE, {"e": split, "l": "FLAGGED", "f": {"harm": 5}}, token=validators[0])
    api(VOTE, {"e": split, "l": "CORRECT", "f": {"harm": 2}}, token=validators[1])
    wait_until(lambda: run_sql("SELECT count(*) FROM validations WHERE NOT aggregated")[0]["count"] == 0)
    assert api(EXAMPLE, {"id": split}, token=owner)["node"] == {"status": "open", "fooled": None, "verdict": "PENDING"}

    # Attack success: one of three collected failed, and validators decided it (validated = fooled here).
    stats = api(ATTACK_SUCCESS, {"r": round_id})["node"]["attackSuccess"]
    assert {"grouping": "target", "key": demo, "collected": 3, "fooled": 1, "validatedFooled": 1} in stats
    # The author's counters follow the verdicts the validators gave.
    rows = run_sql(
        "SELECT submitted, fooled FROM user_round_stats s JOIN users u ON u.id = s.\"user\" WHERE u.username = 'rated_author'"
    )
    assert rows == [{"submitted": 3, "fooled": 1}]


def test_a_rating_rule_must_name_a_required_rating_field(api, demo):
    config = _rated_config()
    config["generative"]["rating"] = {"field": "rationale", "threshold": 4}
    owner = api.sign_up("rated_owner")
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on InputError { fields { field message } } } }",
        {"i": {"code": "rated_bad", "name": "Rated badly", "config": config}},
        token=owner,
    )["createTask"]
    assert created["__typename"] == "InputError"
    assert [f["field"] for f in created["fields"]] == ["config.generative.rating.field"], created
