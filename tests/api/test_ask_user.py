"""fooling `ask_user` end to end through GraphQL (docs/design.md §4.1): the annotator sees the model's answer and
says whether it was wrong (claimFooled), validators confirm or reject the claim, and vMER counts only confirmed
claims. The task is an owner's QA task judged by the built-in word-overlap QA model."""

import copy
import uuid

import pytest

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit, wait_until
from tests.authz.world import load_qa_target, pk_of
from tests.conftest import run_sql, seed_builtin_tasks

PASSAGE = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891 and won the Nobel Prize twice."
CONFIG = {**copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"]), "fooling": {"metric": "ask_user"}}
CLAIM = """mutation($i: ClaimFooledInput!) { claimFooled(input: $i) {
  __typename
  ... on FoolingClaimed { verdict message duplicate example { id status fooled verdict claimedFooled } }
  ... on Error { code message }
} }"""
VALIDATE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) {
  __typename ... on Error { code message } } }"""
ROUND = """query($r: ID!) { node(id: $r) { ... on Round {
  totalCollected totalFooled totalValidated totalValidatedFooled mer vmer } } }"""


@pytest.fixture(scope="module")
def qa_model(stack, request):
    load_qa_target(stack, request)


def _claim(api, token, example_id, model_was_wrong, client_id=None):
    variables = {"i": {"exampleId": example_id, "modelWasWrong": model_was_wrong, "clientId": str(client_id or uuid.uuid4())}}
    return api(CLAIM, variables, token=token)["claimFooled"]


def _ask_user_task(api):
    """An owner's task with fooling ask_user; its round is judged by the built-in QA model (an admin's choice)."""
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")  # an admin's task is public at once
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }",
        {"i": {"code": "freeqa", "name": "Free QA", "config": CONFIG}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } } "
        "... on InputError { fields { field message } } ... on Error { message } } }",
        {"i": {"taskCode": "freeqa", "targetModels": [{"name": "qa_overlap_baseline"}]}},
        token=owner,
    )["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": PASSAGE}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded", added
    return owner, round_id


def _write(api, token, round_id, question, answer="Warsaw", sandbox=False):
    """An example against the round's next context; the answer is a span of its passage (else its first word)."""
    context = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]
    passage = context["fields"]["context"]
    answer = answer if answer in passage else passage.split()[0]
    fields = {"question": question}
    return submit(api, token, round_id, context["id"], fields, answer=answer, answerStart=passage.index(answer), sandbox=sandbox)


def _status(example_id):
    return run_sql("SELECT status FROM examples WHERE id = $1", pk_of(example_id))[0]["status"]


def test_claims_are_stored_once_confirmed_by_validators_and_only_confirmed_ones_count(api, qa_model):
    _owner, round_id = _ask_user_task(api)
    author = api.sign_up("author")

    # The model answers, and the example waits for its author's claim: no verdict, nothing counted as fooled yet.
    written = _write(api, author, round_id, "Where was Marie Curie born?")
    assert written["__typename"] == "ExampleSubmitted", written
    assert written["verdict"] == "AWAITING_CLAIM"
    assert written["message"] == "Here is the model's answer. Did the model get it wrong?"
    assert written["predictions"][0]["modelName"] == "qa_overlap_baseline" and written["predictions"][0]["answer"]
    first = written["example"]
    assert (first["status"], first["fooled"]) == ("awaiting_claim", None)
    sandbox = _write(api, author, round_id, "Where?", sandbox=True)
    assert (sandbox["verdict"], sandbox["example"]) == ("AWAITING_CLAIM", None)
    assert sandbox["message"].startswith("Sandbox (not saved): ")

    # Nobody validates an example before its claim; nobody but its author claims.
    validators = [api.sign_up(f"validator{i}") for i in range(3)]
    early = api(VALIDATE, {"e": first["id"], "l": "CORRECT"}, token=validators[0])["validateExample"]
    assert early == {
        "__typename": "ConflictError",
        "code": "CONFLICT",
        "message": "The author has not said yet whether the model got this example wrong.",
    }
    assert _claim(api, validators[0], first["id"], True)["__typename"] == "PermissionError"
    assert _claim(api, None, first["id"], True)["__typename"] == "AuthenticationError"
    assert _status(first["id"]) == "awaiting_claim"

    # The claim: once, and a retry with the same client UUID answers the stored claim.
    client_id = uuid.uuid4()
    claimed = _claim(api, author, first["id"], True, client_id)
    assert claimed["__typename"] == "FoolingClaimed", claimed
    assert (claimed["verdict"], claimed["duplicate"]) == ("FOOLED", False)
    assert claimed["example"] == {"id": first["id"], "status": "open", "fooled": True, "verdict": "FOOLED", "claimedFooled": True}
    again = _claim(api, author, first["id"], True, client_id)
    assert (again["__typename"], again["duplicate"], again["example"]) == ("FoolingClaimed", True, claimed["example"])
    changed_mind = _claim(api, author, first["id"], False)
    assert changed_mind == {
        "__typename": "ConflictError",
        "code": "CONFLICT",
        "message": "You have already said whether the model got this example wrong.",
    }

    second = _write(api, author, round_id, "In which year was Marie Curie born?", answer="1867")["example"]
    assert _claim(api, author, second["id"], True)["verdict"] == "FOOLED"
    third = _write(api, author, round_id, "Where did she move?", answer="Paris")["example"]
    right = _claim(api, author, third["id"], False)
    assert (right["verdict"], right["example"]["status"]) == ("NOT_FOOLED", "closed")
    assert right["message"] == "Noted: the model got it right. Try again?"
    fourth = _write(api, author, round_id, "Who moved?", answer="Marie Curie")["example"]  # never claimed

    # Claimed, not yet validated: MER counts the claims, vMER nothing.
    numbers = api(ROUND, {"r": round_id})["node"]
    assert numbers == {
        "totalCollected": 4,
        "totalFooled": 2,
        "totalValidated": 0,
        "totalValidatedFooled": 0,
        "mer": 0.5,
        "vmer": 0.0,
    }

    # The validators' question is "was the model really wrong?": they confirm the first claim, reject the second.
    queue = api("query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 10) { id } }", {"r": round_id}, token=validators[0])[
        "nextExamplesToValidate"
    ]
    assert sorted(e["id"] for e in queue) == sorted([first["id"], second["id"]])  # not the unclaimed, nor the closed
    for token in validators:
        assert (
            api(VALIDATE, {"e": first["id"], "l": "CORRECT"}, token=token)["validateExample"]["__typename"] == "ExampleValidated"
        )
        assert (
            api(VALIDATE, {"e": second["id"], "l": "INCORRECT"}, token=token)["validateExample"]["__typename"]
            == "ExampleValidated"
        )
    wait_until(lambda: _status(first["id"]) == "validated" and _status(second["id"]) == "rejected")

    numbers = api(ROUND, {"r": round_id})["node"]
    assert numbers == {
        "totalCollected": 4,
        "totalFooled": 2,
        "totalValidated": 1,
        "totalValidatedFooled": 1,
        "mer": 0.5,
        "vmer": 0.25,
    }
    me = api('{ myStats(taskCode: "freeqa") { submitted fooled verifiedFooled } }', token=author)["myStats"]
    assert me == {"submitted": 4, "fooled": 2, "verifiedFooled": 1}
    node = api("query($e: ID!) { node(id: $e) { ... on Example { verdict claimedFooled } } }", {"e": fourth["id"]}, token=author)[
        "node"
    ]
    assert node == {"verdict": "AWAITING_CLAIM", "claimedFooled": None}
    confirmed = _claim(api, author, first["id"], True, client_id)
    assert confirmed["message"] == "Validators confirmed it: you fooled the model!"

    # The counters equal a recount from rows (what every aggregation and the recount job write).
    recount = run_sql(
        "SELECT count(*) FILTER (WHERE NOT retracted) AS collected, count(*) FILTER (WHERE NOT retracted AND fooled) AS fooled, "
        "count(*) FILTER (WHERE NOT retracted AND fooled AND status = 'validated') AS validated_fooled "
        "FROM examples WHERE round = $1",
        pk_of(round_id),
    )[0]
    assert (recount["collected"], recount["fooled"], recount["validated_fooled"]) == (4, 2, 1)
    users = run_sql(
        'SELECT s.submitted, s.fooled, s.fooled_rejected FROM user_round_stats s JOIN users u ON u.id = s."user" '
        "WHERE u.username = 'author'"
    )
    assert users == [{"submitted": 4, "fooled": 2, "fooled_rejected": 1}]


def test_claims_that_cannot_be_made(api, qa_model):
    _owner, round_id = _ask_user_task(api)
    author = api.sign_up("author")
    example = _write(api, author, round_id, "Where was Marie Curie born?")["example"]
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": example["id"]}, token=author)
    retracted = _claim(api, author, example["id"], True)
    assert (retracted["__typename"], retracted["message"]) == ("ConflictError", "This example was retracted.")

    # A task whose metric judges the model: nothing to claim.
    seed_builtin_tasks()
    qa_round = current_round(api, "qa")
    judged = _write(api, author, qa_round, "Where was she born?")
    assert judged["verdict"] in ("FOOLED", "NOT_FOOLED"), judged
    refused = _claim(api, author, judged["example"]["id"], True)
    assert refused["message"] == "The task's metric judged this example: there is nothing to claim."

    missing = _claim(api, author, "RXhhbXBsZTo5OTk5OTk=", True)  # Example:999999
    assert missing["__typename"] == "NotFoundError"
    assert run_sql("SELECT count(*) AS n FROM examples WHERE claim_client_id IS NOT NULL")[0]["n"] == 0
