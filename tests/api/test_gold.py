"""Gold items through GraphQL (docs/design.md §4.2): owners mark gold, the queue mixes it in at the task's rate in the
same shape as other items, answers on gold are graded (never votes), and a validator below the threshold is paused:
no queue, validateExample refuses, and their votes on undecided examples stop counting."""

import json

from strawberry.relay import GlobalID

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.conftest import run_sql, seed_builtin_tasks

MARK = """mutation($e: ID!, $a: ValidationLabel!) { markGold(exampleId: $e, answer: $a) { __typename
  ... on GoldMarked { answer example { id } } ... on Error { code message } } }"""
UNMARK = "mutation($e: ID!) { unmarkGold(exampleId: $e) { __typename ... on Error { code message } } }"
NEXT = "query($r: ID!, $n: Int!) { nextExamplesToValidate(roundId: $r, first: $n) { id fooled status input modelOutput } }"
VALIDATE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename
  ... on ExampleValidated { validation { label mode note } example { id } } ... on Error { code message } } }"""
WAITING = "query($r: ID!) { validationWaiting(roundId: $r) { count capped } }"
QUALITY = """query($c: String!) { taskQuality(taskCode: $c) { duplicatesRefused
  validators { username votes goldAnswered goldCorrect goldAccuracy paused } } }"""


def _configure(**validation):
    run_sql(
        # The task's config and the version its round runs with (docs/design.md §12).
        "WITH t AS (UPDATE tasks SET config = jsonb_set(config, '{validation}', config->'validation' || $1::jsonb) "
        "WHERE code = 'sentiment' RETURNING id, config, config_version) "
        "UPDATE task_config_versions v SET config = t.config FROM t WHERE v.task = t.id AND v.version = t.config_version",
        json.dumps(validation),
    )


def _pk(global_id: str) -> int:
    return int(GlobalID.from_id(global_id).node_id)


def _world(api, n_examples):
    seed_builtin_tasks()
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = [
        fooling_example(api, author, round_id, context_id, f"Gold world review {i}: nothing like it, truly.")
        for i in range(n_examples)
    ]
    return owner, author, round_id, [e["id"] for e in examples]


def test_gold_is_mixed_in_at_the_rate_in_the_same_shape(api, target_models):
    owner, author, round_id, ids = _world(api, 3)
    _configure(gold_rate=0.5)
    # Only the task's owners mark gold; to anyone else the example does not exist.
    assert api(MARK, {"e": ids[0], "a": "CORRECT"}, token=author)["markGold"]["code"] == "NOT_FOUND"
    marked = api(MARK, {"e": ids[0], "a": "CORRECT"}, token=owner)["markGold"]
    assert marked["__typename"] == "GoldMarked" and marked["answer"] == "CORRECT", marked
    validator = api.sign_up("validator")
    served = [api(NEXT, {"r": round_id, "n": 1}, token=validator)["nextExamplesToValidate"] for _ in range(60)]
    gold_draws = sum(1 for items in served if items and items[0]["id"] == ids[0])
    # Binomial(60, 0.5): 30 ± 3.9 (sd); the bounds are > 4 sd away.
    assert 12 <= gold_draws <= 48, gold_draws
    shapes = {tuple(sorted(items[0])) for items in served if items}
    assert len(shapes) == 1
    gold_item = next(items[0] for items in served if items and items[0]["id"] == ids[0])
    assert gold_item["status"] == "open"
    # The examples connection of the queue never lists gold separately, and the rate 0 serves none.
    _configure(gold_rate=0.0)
    assert all(
        api(NEXT, {"r": round_id, "n": 5}, token=validator)["nextExamplesToValidate"][0]["id"] != ids[0] for _ in range(10)
    )
    assert api(UNMARK, {"e": ids[0]}, token=owner)["unmarkGold"]["__typename"] == "GoldUnmarked"
    assert api(UNMARK, {"e": ids[0]}, token=owner)["unmarkGold"]["code"] == "NOT_FOUND"


def test_failing_gold_pauses_the_validator_and_their_open_votes_stop_counting(api, target_models):
    owner, _author, round_id, ids = _world(api, 4)
    _configure(gold_rate=0.0, gold_min_answers=2, gold_pause_below=0.7, num_matching_validations=2)
    for gold_id in ids[:2]:
        assert api(MARK, {"e": gold_id, "a": "CORRECT"}, token=owner)["markGold"]["__typename"] == "GoldMarked"
    careless, careful = api.sign_up("careless"), api.sign_up("careful")
    # An ordinary vote first: it counts while the validator is not paused.
    assert api(VALIDATE, {"e": ids[2], "l": "INCORRECT"}, token=careless)["validateExample"]["__typename"] == "ExampleValidated"
    # Answers on gold look like votes to the validator, but are graded, never stored as votes.
    answered = api(VALIDATE, {"e": ids[0], "l": "INCORRECT"}, token=careless)["validateExample"]
    assert answered["__typename"] == "ExampleValidated" and answered["validation"] == {
        "label": "INCORRECT",
        "mode": "USER",
        "note": "",
    }
    again = api(VALIDATE, {"e": ids[0], "l": "CORRECT"}, token=careless)["validateExample"]
    assert again["code"] == "ALREADY_VALIDATED"  # as for a vote: a retry after a lost reply is done
    api(VALIDATE, {"e": ids[1], "l": "FLAGGED"}, token=careless)
    assert run_sql("SELECT count(*) AS n FROM validations WHERE example = ANY($1::int[])", [_pk(i) for i in ids[:2]])[0]["n"] == 0

    # 0 of 2 right, below 0.7 after the minimum of 2: paused.
    refused = api(VALIDATE, {"e": ids[3], "l": "CORRECT"}, token=careless)["validateExample"]
    assert refused["code"] == "FORBIDDEN" and "paused" in refused["message"]
    assert api(NEXT, {"r": round_id, "n": 5}, token=careless)["nextExamplesToValidate"] == []
    # The count agrees with the empty hand-out: nothing waits for a paused validator (one still counts the open ones).
    assert api(WAITING, {"r": round_id}, token=careless)["validationWaiting"] == {"count": 0, "capped": False}
    assert api(WAITING, {"r": round_id}, token=careful)["validationWaiting"]["count"] == 2
    quality = api(QUALITY, {"c": "sentiment"}, token=owner)["taskQuality"]
    by_name = {v["username"]: v for v in quality["validators"]}
    assert by_name["careless"] == {
        "username": "careless",
        "votes": 1,
        "goldAnswered": 2,
        "goldCorrect": 0,
        "goldAccuracy": 0.0,
        "paused": True,
    }
    denied = api.raw(QUALITY, {"c": "sentiment"}, token=careful).json()  # owners only
    assert denied["data"] is None and denied["errors"][0]["extensions"]["code"] == "FORBIDDEN"

    # A second INCORRECT would make two matching votes; the paused validator's does not count: still open.
    assert api(VALIDATE, {"e": ids[2], "l": "INCORRECT"}, token=careful)["validateExample"]["__typename"] == "ExampleValidated"
    wait_until(lambda: run_sql("SELECT bool_and(aggregated) AS done FROM validations WHERE example = $1", _pk(ids[2]))[0]["done"])
    assert run_sql("SELECT status FROM examples WHERE id = $1", _pk(ids[2]))[0]["status"] == "open"
    # A careful validator's gold answers keep them going.
    api(VALIDATE, {"e": ids[0], "l": "CORRECT"}, token=careful)
    api(VALIDATE, {"e": ids[1], "l": "CORRECT"}, token=careful)
    assert api(VALIDATE, {"e": ids[3], "l": "CORRECT"}, token=careful)["validateExample"]["__typename"] == "ExampleValidated"
