"""Owners look through what a round collected (issue #18): filters and full-text search over a keyset connection, the
flag queue, one example's votes and history, and bulk actions that succeed or fail item by item."""

from strawberry.relay import to_base64

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example
from tests.conftest import run_sql, seed_builtin_tasks

BROWSE = """query($r: ID!, $f: ExampleFilterInput, $n: Int! = 20, $a: String) {
  roundExamples(roundId: $r, filter: $f, first: $n, after: $a) {
    edges { node { id input status fooled flagged retracted } } pageInfo { hasNextPage endCursor } } }"""
FLAGGED = 'query { flaggedExamples(taskCode: "sentiment") { edges { node { id flagReason } } } }'
REVIEW = """query($e: ID!) { exampleReview(exampleId: $e) {
  example { id status } votes { username label mode note } history { action username note } goldAnswer } }"""
ACT = """mutation($ids: [ID!]!, $a: ExampleBulkAction!, $note: String! = "") {
  actOnExamples(exampleIds: $ids, action: $a, note: $note) { __typename
    ... on ExamplesActedOn { outcomes { exampleId done code message example { id status retracted flagged } } }
    ... on Error { code message } } }"""
FLAG = 'mutation($e: ID!) { flagExample(exampleId: $e, reason: "I typed the wrong label") { __typename } }'
VALIDATE = 'mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, note: "fine") { __typename } }'

TEXTS = [
    "The soup was cold and the waiter ignored us all evening.",
    "A brilliant pianist, a quiet room, an unforgettable night.",
    "Parking was easy but the pizza tasted of cardboard.",
    "Cold coffee again; the croissant was stale.",
]


def _world(api):
    seed_builtin_tasks()
    author, owner = api.sign_up("author"), api.sign_up("owner")
    run_sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'owner'"
    )
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = [fooling_example(api, author, round_id, context_id, text) for text in TEXTS]
    return author, owner, round_id, [e["id"] for e in examples]


def _ids(connection):
    return [edge["node"]["id"] for edge in connection["edges"]]


def test_filters_search_and_pages(api, target_models):
    author, owner, round_id, ids = _world(api)
    everything = api(BROWSE, {"r": round_id}, token=owner)["roundExamples"]
    assert _ids(everything) == ids[::-1]  # newest first
    first = api(BROWSE, {"r": round_id, "n": 3}, token=owner)["roundExamples"]
    assert _ids(first) == ids[:0:-1] and first["pageInfo"]["hasNextPage"] is True
    rest = api(BROWSE, {"r": round_id, "n": 3, "a": first["pageInfo"]["endCursor"]}, token=owner)["roundExamples"]
    assert _ids(rest) == [ids[0]] and rest["pageInfo"]["hasNextPage"] is False

    def found(**f):
        return _ids(api(BROWSE, {"r": round_id, "f": f}, token=owner)["roundExamples"])

    assert found(text="cold") == [ids[3], ids[0]]  # words, any case
    assert found(text="cold -coffee") == [ids[0]]  # web-search syntax
    assert found(text='"unforgettable night"') == [ids[1]]
    assert found(text="cardboard pizza") == [ids[2]]
    assert found(text="nothing-like-this") == []
    assert found(author="author", fooled=True) == ids[::-1]
    assert found(author="nobody") == []
    assert found(statuses=["OPEN"]) == ids[::-1] and found(statuses=["VALIDATED", "REJECTED"]) == []

    api(FLAG, {"e": ids[2]}, token=author)
    api("mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }", {"e": ids[1]}, token=author)
    assert found(flagged=True) == [ids[2]]
    assert found(retracted=True) == [ids[1]] and ids[1] not in found(retracted=False)
    flagged = api(FLAGGED, token=owner)["flaggedExamples"]["edges"]
    assert [(e["node"]["id"], e["node"]["flagReason"]) for e in flagged] == [(ids[2], "I typed the wrong label")]


def test_only_owners_browse_and_bad_filters_are_explained(api, target_models):
    author, owner, round_id, ids = _world(api)
    for token in (author, api.sign_up("stranger"), None):
        [error] = api.errors(BROWSE, {"r": round_id}, token=token)
        assert error["extensions"]["code"] in ("FORBIDDEN", "AUTHENTICATION_REQUIRED")
        [error] = api.errors(REVIEW, {"e": ids[0]}, token=token)
        assert error["extensions"]["code"] in ("NOT_FOUND", "AUTHENTICATION_REQUIRED")
    [error] = api.errors(BROWSE, {"r": round_id, "f": {"text": "x" * 201}}, token=owner)
    assert error["extensions"]["code"] == "INVALID_INPUT" and "filter" in error["message"].lower()
    [error] = api.errors(
        BROWSE,
        {"r": round_id, "f": {"createdAfter": "2026-01-02T00:00:00+00:00", "createdBefore": "2026-01-01T00:00:00+00:00"}},
        token=owner,
    )
    assert error["extensions"]["code"] == "INVALID_INPUT"
    # A stranger's bulk action touches nothing and learns nothing about which examples exist.
    stranger = api.sign_up("stranger2")
    outcomes = api(ACT, {"ids": [ids[0]], "a": "RETRACT"}, token=stranger)["actOnExamples"]["outcomes"]
    assert [(o["done"], o["code"], o["example"]) for o in outcomes] == [(False, "NOT_FOUND", None)]
    assert run_sql("SELECT count(*) AS n FROM examples WHERE retracted")[0]["n"] == 0


def test_review_and_bulk_actions(api, target_models):
    author, owner, round_id, ids = _world(api)
    validator = api.sign_up("validator")
    assert api(VALIDATE, {"e": ids[0]}, token=validator)["validateExample"]["__typename"] == "ExampleValidated"
    api(FLAG, {"e": ids[2]}, token=author)

    missing = to_base64("Example", 99999)
    acted = api(ACT, {"ids": [ids[1], ids[2], missing], "a": "RESOLVE_FLAG", "note": "label fixed"}, token=owner)
    outcomes = acted["actOnExamples"]["outcomes"]
    assert [(o["done"], o["code"]) for o in outcomes] == [(False, "CONFLICT"), (True, None), (False, "NOT_FOUND")]
    assert outcomes[1]["example"]["flagged"] is False
    assert api(FLAGGED, token=owner)["flaggedExamples"]["edges"] == []

    decided = api(ACT, {"ids": [ids[0], ids[3]], "a": "VALIDATE_CORRECT", "note": "checked"}, token=owner)
    # An owner vote decides at once: the action's own answer is the decided example (the list is updated from it).
    assert [(o["done"], o["example"]["status"]) for o in decided["actOnExamples"]["outcomes"]] == [(True, "validated")] * 2
    for example_id in (ids[0], ids[3]):
        assert api(REVIEW, {"e": example_id}, token=owner)["exampleReview"]["example"]["status"] == "validated"
    retracted = api(ACT, {"ids": [ids[1], ids[1]], "a": "RETRACT", "note": "abusive"}, token=owner)
    assert [o["done"] for o in retracted["actOnExamples"]["outcomes"]] == [True]  # each example once
    again = api(ACT, {"ids": [ids[1]], "a": "RETRACT"}, token=owner)["actOnExamples"]["outcomes"]
    assert [(o["done"], o["code"]) for o in again] == [(False, "CONFLICT")]
    totals = api("query($r: ID!) { node(id: $r) { ... on Round { totalCollected } } }", {"r": round_id})["node"]
    assert totals["totalCollected"] == 3  # the retracted one left the counts

    review = api(REVIEW, {"e": ids[0]}, token=owner)["exampleReview"]
    assert review["example"] == {"id": ids[0], "status": "validated"}
    assert [(v["username"], v["label"], v["mode"], v["note"]) for v in review["votes"]] == [
        ("validator", "CORRECT", "USER", "fine"),
        ("owner", "CORRECT", "OWNER", "checked"),
    ]
    assert review["history"] == [{"action": "validate_correct", "username": "owner", "note": "checked"}]
    assert review["goldAnswer"] is None
    flagged_history = api(REVIEW, {"e": ids[2]}, token=owner)["exampleReview"]["history"]
    assert flagged_history == [{"action": "resolve_flag", "username": "owner", "note": "label fixed"}]

    # One example flagged from its card: answered as flagged at once, and in the flag queue.
    flagged = api(ACT, {"ids": [ids[2]], "a": "VALIDATE_FLAGGED"}, token=owner)["actOnExamples"]["outcomes"]
    assert [(o["done"], o["example"]["status"]) for o in flagged] == [(True, "flagged")]
    assert [e["node"]["id"] for e in api(FLAGGED, token=owner)["flaggedExamples"]["edges"]] == [ids[2]]

    too_many = api(ACT, {"ids": [ids[0]] * 101, "a": "RETRACT"}, token=owner)["actOnExamples"]
    assert too_many["__typename"] == "InputError"
    assert run_sql("SELECT count(*) AS n FROM example_events")[0]["n"] == 5
