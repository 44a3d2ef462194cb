"""uploadGold through GraphQL (docs/design.md §4.2): a task owner's JSONL rows become hidden gold examples of a round,
all or none; the queue mixes them in like marked gold, answers on them are graded, and they count in no round stats."""

import json

from tests.api.examples_helpers import current_round
from tests.api.models_helpers import multipart
from tests.api.test_gold import NEXT, VALIDATE, _configure
from tests.conftest import run_sql, seed_builtin_tasks

UPLOAD = """mutation($r: ID!, $f: Upload!) { uploadGold(roundId: $r, file: $f) { __typename
  ... on GoldUploaded { count examples { id status } } ... on InputError { code message fields { field message } }
  ... on Error { code message } } }"""
ROUND = "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled } } }"


def _rows(*rows):
    return "\n".join(json.dumps(row) for row in rows).encode()


def _upload(api, token, round_id, content):
    return multipart(api, UPLOAD, {"r": round_id}, "f", content, "gold.jsonl", token)["uploadGold"]


def test_uploaded_gold_is_hidden_graded_and_uncounted(api, target_models):
    seed_builtin_tasks()
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    outsider = api.sign_up("outsider")
    round_id = current_round(api, "sentiment")
    before = api(ROUND, {"r": round_id})["node"]
    good = _rows(
        {"fields": {"statement": "The soup was cold and the waiter rude."}, "label": "positive", "gold": "incorrect"},
        {"fields": {"statement": "A warm, generous film."}, "label": "positive", "gold": "CORRECT"},
    )
    # Only the task's owners upload gold.
    assert _upload(api, outsider, round_id, good)["code"] == "FORBIDDEN"
    # Any bad row refuses the whole file, naming the line; nothing is written.
    bad = good + b"\n" + _rows({"fields": {"statement": "Fine."}, "label": "ecstatic", "gold": "correct"})
    refused = _upload(api, owner, round_id, bad)
    assert refused["code"] == "INVALID_INPUT", refused
    assert [p["field"] for p in refused["fields"]] == ["line 3.label"]
    broken = _upload(api, owner, round_id, good + b"\n{")
    assert [p["field"] for p in broken["fields"]] == ["line 3"], broken
    assert run_sql("SELECT count(*) AS n FROM gold_items")[0]["n"] == 0

    uploaded = _upload(api, owner, round_id, good)
    assert uploaded["__typename"] == "GoldUploaded" and uploaded["count"] == 2, uploaded
    ids = [e["id"] for e in uploaded["examples"]]
    assert run_sql("SELECT count(*) AS n FROM gold_items WHERE hidden")[0]["n"] == 2

    # Served only through the gold mix: never at rate 0, then like any other item.
    validator = api.sign_up("validator")
    assert api(NEXT, {"r": round_id, "n": 5}, token=validator)["nextExamplesToValidate"] == []
    _configure(gold_rate=0.5)
    served = [api(NEXT, {"r": round_id, "n": 1}, token=validator)["nextExamplesToValidate"] for _ in range(40)]
    assert {items[0]["id"] for items in served if items} == set(ids)
    # Answers are graded (gold_answers), never votes.
    assert api(VALIDATE, {"e": ids[0], "l": "INCORRECT"}, token=validator)["validateExample"]["__typename"] == "ExampleValidated"
    assert run_sql("SELECT count(*) AS n FROM validations")[0]["n"] == 0
    assert run_sql("SELECT label = gold_label AS right FROM gold_answers")[0]["right"] is True
    # No round counter moved (the recount from rows excludes hidden gold too).
    assert api(ROUND, {"r": round_id})["node"] == before
