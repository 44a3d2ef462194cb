"""Annotation form components end to end through GraphQL (issue #18 point 3, docs/task-config.md): a task using every
component, an example's values checked and stored, the fields asked after the verdict (answerFollowUp), a validator's
fields by vote, and every value in the round export. The task judges with fooling ask_user (the author says whether
the built-in QA model was wrong), so the verdict each test needs is certain."""

import copy
import json
import uuid

import httpx
import pytest

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import NEXT_CONTEXT, submit, wait_until
from tests.authz.world import load_qa_target, pk_of
from tests.conftest import run_sql

PASSAGE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 and won the Nobel Prize twice."
INPUT_FIELDS = [
    {"name": "question", "max_length": 300},
    {"name": "details", "type": "multiline_text", "required": False, "help": "Anything the validators should know."},
    {"name": "stance", "type": "single_label", "choices": ["pro", {"value": "con", "label": "Against"}]},
    {"name": "topics", "type": "multi_label", "choices": ["history", "science", "art"], "max_selected": 2},
    {"name": "confidence", "type": "number", "min": 0, "max": 10, "step": 0.5, "widget": "slider"},
    {"name": "country", "type": "dropdown", "choices": ["pl", "fr", "de"]},
    {"name": "difficulty", "type": "rating", "scale": 5},
    {"name": "tricky", "type": "boolean"},
    {"name": "evidence", "type": "span", "span_of": "context"},
    {"name": "why", "type": "multiline_text", "show_when": "fooled", "required": True},
    {"name": "easy_because", "type": "text", "show_when": "not_fooled"},
]
VALIDATOR_FIELDS = [
    {
        "name": "corrected_label",
        "type": "single_label",
        "choices": ["right_span", "wrong_span", "unanswerable"],
        "show_when": "incorrect",
        "required": True,
    },
    {"name": "why_wrong", "type": "multiline_text", "show_when": "incorrect"},
    {"name": "clarity", "type": "rating", "scale": 3},
]
CONFIG = {
    **copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"]),
    "fooling": {"metric": "ask_user"},
    "validation": {"num_matching_validations": 1},
    "input_fields": INPUT_FIELDS,
    "validator_fields": VALIDATOR_FIELDS,
}
GOOD = {
    "question": "Where was Marie Curie born?",
    "details": "Two cities are named.",
    "stance": "con",
    "topics": ["history", "science"],
    "confidence": 7.5,
    "country": "pl",
    "difficulty": 4,
    "tricky": False,
    "evidence": {"start": 24, "end": 30},  # "Warsaw"
}
ERRORS = "... on InputError { message fields { field message } } ... on Error { code message }"
FOLLOW_UP = f"""mutation($i: AnswerFollowUpInput!) {{ answerFollowUp(input: $i) {{ __typename
  ... on FollowUpAnswered {{ duplicate example {{ id input followUpAnswered status }} }} {ERRORS} }} }}"""
CLAIM = f"""mutation($i: ClaimFooledInput!) {{ claimFooled(input: $i) {{ __typename
  ... on FoolingClaimed {{ verdict }} {ERRORS} }} }}"""
VALIDATE = f"""mutation($e: ID!, $l: ValidationLabel!, $f: JSON) {{ validateExample(exampleId: $e, label: $l, fields: $f) {{
  __typename ... on ExampleValidated {{ validation {{ label fields }} }} {ERRORS} }} }}"""
EXPORT = """mutation($r: ID!) { exportRound(roundId: $r, format: JSONL) {
  __typename ... on RoundExport { url } ... on Error { code message } } }"""


@pytest.fixture(scope="module")
def qa_model(stack, request):
    load_qa_target(stack, request)


@pytest.fixture
def task(api, qa_model):
    """(owner token, round id, context id) of an admin's public task using every component."""
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    created = api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERRORS} }} }}",
        {"i": {"code": "forms", "name": "Every form component", "config": CONFIG}},
        token=owner,
    )["createTask"]
    assert created["__typename"] == "TaskCreated", created
    opened = api(
        f"mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename ... on RoundCreated {{ round {{ id }} }} {ERRORS} }} }}",
        {"i": {"taskCode": "forms", "targetModels": [{"name": "qa_overlap_baseline"}]}},
        token=owner,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    round_id = opened["round"]["id"]
    api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": PASSAGE}}]}},
        token=owner,
    )
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=owner)["nextContext"]["id"]
    return owner, round_id, context_id


def _write(api, token, task, fields):
    _owner, round_id, context_id = task
    return submit(api, token, round_id, context_id, fields, answer="Warsaw", answerStart=PASSAGE.index("Warsaw"))


def _judged(api, token, task, model_was_wrong, fields=GOOD):
    """An example of `token`'s with the verdict its author claims."""
    written = _write(api, token, task, fields)
    assert written["__typename"] == "ExampleSubmitted", written
    claim = {"exampleId": written["example"]["id"], "modelWasWrong": model_was_wrong, "clientId": str(uuid.uuid4())}
    assert api(CLAIM, {"i": claim}, token=token)["claimFooled"]["verdict"] == ("FOOLED" if model_was_wrong else "NOT_FOOLED")
    return written["example"]


def _follow_up(api, token, example_id, fields, client_id=None):
    variables = {"i": {"exampleId": example_id, "fields": fields, "clientId": str(client_id or uuid.uuid4())}}
    return api(FOLLOW_UP, variables, token=token)["answerFollowUp"]


def _vote(api, token, example_id, label, fields=None):
    return api(VALIDATE, {"e": example_id, "l": label, "f": fields}, token=token)["validateExample"]


def _fields_of(result):
    assert result["__typename"] == "InputError", result
    return {f["field"]: f["message"] for f in result["fields"]}


def test_every_component_end_to_end_into_the_export(stack, api, task):
    owner, round_id, _context = task
    author = api.sign_up("author")
    written = _write(api, author, task, GOOD)
    assert written["__typename"] == "ExampleSubmitted" and written["verdict"] == "AWAITING_CLAIM", written
    example_id = written["example"]["id"]
    stored = written["example"]["input"]
    assert stored == {**GOOD, "evidence": {"start": 24, "end": 30, "text": "Warsaw"}, "answer": "Warsaw", "answer_start": 24}

    # The questions after the verdict wait for the verdict, and are the author's to answer.
    early = _follow_up(api, author, example_id, {"why": "x"})
    assert (early["__typename"], early["message"]) == ("ConflictError", "The model's verdict on this example is not known yet.")
    claim = {"exampleId": example_id, "modelWasWrong": True, "clientId": str(uuid.uuid4())}
    assert api(CLAIM, {"i": claim}, token=author)["claimFooled"]["verdict"] == "FOOLED"
    assert _follow_up(api, api.sign_up("stranger"), example_id, {"why": "x"})["__typename"] == "PermissionError"
    assert _follow_up(api, None, example_id, {"why": "x"})["__typename"] == "AuthenticationError"
    assert _fields_of(_follow_up(api, author, example_id, {"easy_because": "x", "why": "y"})) == {
        "fields.easy_because": "is asked only after the model was not fooled"
    }
    assert _fields_of(_follow_up(api, author, example_id, {})) == {"fields.why": "must be non-empty text"}

    # Once, idempotent on its client UUID.
    client_id = uuid.uuid4()
    answered = _follow_up(api, author, example_id, {"why": "It took the first city it saw."}, client_id)
    assert answered["__typename"] == "FollowUpAnswered" and answered["duplicate"] is False, answered
    assert answered["example"]["input"]["why"] == "It took the first city it saw." and answered["example"]["followUpAnswered"]
    again = _follow_up(api, author, example_id, {"why": "Something else."}, client_id)
    assert (again["duplicate"], again["example"]) == (True, answered["example"])
    other = _follow_up(api, author, example_id, {"why": "Something else."})
    assert (other["__typename"], other["message"]) == (
        "ConflictError",
        "The follow-up questions of this example are already answered.",
    )

    # The validator's fields, by vote.
    validator = api.sign_up("validator")
    assert _fields_of(_vote(api, validator, example_id, "INCORRECT", {"clarity": 2})) == {"fields.corrected_label": "is required"}
    assert _fields_of(_vote(api, validator, example_id, "CORRECT", {"clarity": 2, "corrected_label": "wrong_span"})) == {
        "fields.corrected_label": "is asked only with an INCORRECT vote"
    }
    assert _fields_of(_vote(api, validator, example_id, "FLAGGED", {"clarity": 4})) == {
        "fields.clarity": "must be a whole number from 1 to 3"
    }
    vote_fields = {"corrected_label": "wrong_span", "why_wrong": "Born in Warsaw is right; the span is too short.", "clarity": 3}
    voted = _vote(api, validator, example_id, "INCORRECT", vote_fields)
    assert voted["validation"] == {"label": "INCORRECT", "fields": vote_fields}, voted
    wait_until(lambda: run_sql("SELECT status FROM examples WHERE id = $1", pk_of(example_id))[0]["status"] == "rejected")
    decided = _follow_up(api, author, example_id, {"why": "Late."})
    assert decided["__typename"] == "ConflictError"

    # The export holds every value: the example's, the follow-up's and the vote's.
    link = api(EXPORT, {"r": round_id}, token=owner)["exportRound"]
    rows = [json.loads(line) for line in httpx.get(stack.api_url + link["url"], timeout=60).text.splitlines()]
    row = next(r for r in rows if r["text_id"].endswith(f"-{pk_of(example_id)}"))
    for name, value in GOOD.items():
        assert row[name] == (value if name != "evidence" else {**value, "text": "Warsaw"}), name
    assert row["why"] == "It took the first city it saw." and row["easy_because"] is None
    assert [v["fields"] for v in row["validations"]] == [vote_fields]
    assert row["validations"][0]["label"] == "incorrect" and row["answer"] == "Warsaw"


def test_not_fooled_fields_and_decided_examples(api, task):
    author = api.sign_up("author")
    example = _judged(api, author, task, model_was_wrong=False)
    assert _fields_of(_follow_up(api, author, example["id"], {"why": "x"})) == {
        "fields.why": "is asked only after the model was fooled"
    }
    answered = _follow_up(api, author, example["id"], {"easy_because": "The passage says it plainly."})
    assert answered["__typename"] == "FollowUpAnswered", answered
    assert answered["example"]["input"]["easy_because"] == "The passage says it plainly."

    # Once validated, an example's answers are settled.
    later = _judged(api, author, task, model_was_wrong=True)
    assert _vote(api, api.sign_up("validator"), later["id"], "CORRECT", {"clarity": 1})["__typename"] == "ExampleValidated"
    wait_until(lambda: run_sql("SELECT status FROM examples WHERE id = $1", pk_of(later["id"]))[0]["status"] == "validated")
    refused = _follow_up(api, author, later["id"], {"why": "Too late."})
    assert (refused["__typename"], refused["message"]) == (
        "ConflictError",
        "This example is already validated: its answers can no longer change.",
    )


BAD = [
    ("question", "", "must be non-empty text"),
    ("question", "q" * 301, "longer than 300 characters"),
    ("details", ["not", "text"], "must be non-empty text"),
    ("stance", "maybe", "must be one of pro, con"),
    ("topics", ["history", "sport"], "'sport' is not a choice: each must be one of history, science, art"),
    ("topics", ["history", "science", "art"], "select at most 2"),
    ("topics", [], "select at least 1"),
    ("confidence", 11, "must be between 0 and 10"),
    ("confidence", 2.25, "must be 0 plus a multiple of 0.5"),
    ("confidence", "7", "must be a number"),
    ("country", "us", "must be one of pl, fr, de"),
    ("difficulty", 6, "must be a whole number from 1 to 5"),
    ("tricky", "no", "must be true or false"),
    ("evidence", {"start": 90, "end": 200}, "must be a non-empty span inside the 97 characters of 'context'"),
    ("evidence", "Warsaw", 'must be {"start": int, "end": int}'),
    ("why", "Asked too early.", "is asked only after the model was fooled"),
    ("surprise", 1, "is not an input field of this task"),
]


def test_each_bad_value_is_refused_with_its_field(api, task):
    author = api.sign_up("author")
    for name, value, message in BAD:
        refused = _write(api, author, task, {**GOOD, name: value})
        assert _fields_of(refused) == {f"fields.{name}": message}, name
    for name in ("stance", "topics", "confidence", "country", "difficulty", "tricky", "evidence"):
        missing = {k: v for k, v in GOOD.items() if k != name}
        expected = "is required: select a span of the text" if name == "evidence" else "is required"
        assert _fields_of(_write(api, author, task, missing)) == {f"fields.{name}": expected}, name
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0


def test_config_errors_name_the_field(api, qa_model):
    owner = api.sign_up("owner")
    bad = {**CONFIG, "input_fields": [*INPUT_FIELDS[:2], {"name": "stance", "type": "single_label", "choices": ["pro"]}]}
    created = api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERRORS} }} }}",
        {"i": {"code": "badforms", "name": "Bad forms", "config": bad}},
        token=owner,
    )["createTask"]
    assert _fields_of(created) == {"config.input_fields.2.choices": "a single_label field needs at least 2 choices"}
