"""DynaSent's real validator labels replayed through validateExample: outcomes follow the rule exactly."""

import copy
import json
import random

from server.annotation.aggregation import Vote, outcome
from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import submit, wait_until
from tests.conftest import SHARED_DATA, run_sql

LABELS = ("negative", "positive", "neutral")
N_EXAMPLES = 20


def _rows():
    path = SHARED_DATA / "dynasent" / "dynasent-v1.1-round01-yelp-dev.jsonl"
    rows = [json.loads(line) for line in path.open()]
    rows = [r for r in rows if r.get("gold_label") in LABELS and sum(len(v) for v in r["label_distribution"].values()) == 5]
    return random.Random(7).sample(rows, N_EXAMPLES)


def test_dynasent_votes_replayed(api, target_models, admin_token):
    config = copy.deepcopy(BUILTIN_TASKS[0]["config"])
    config["validation"] = {"num_matching_validations": 3, "validate_non_fooling": True}
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }",
        {"i": {"code": "dynasent_replay", "name": "DynaSent replay", "config": config}},
        token=admin_token,
    )
    assert created["createTask"]["__typename"] == "TaskCreated"
    round_id = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { ... on RoundCreated { round { id } } } }",
        {"i": {"taskCode": "dynasent_replay", "targetModels": [{"name": target_models["sentiment"]}]}},
        token=admin_token,
    )["createRound"]["round"]["id"]
    api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Write a Yelp-style review sentence."}}]}},
        token=admin_token,
    )
    context_id = api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id})["nextContext"]["id"]

    writer = api.sign_up("writer")
    rows = _rows()
    examples = []
    for row in rows:
        result = submit(api, writer, round_id, context_id, {"statement": row["sentence"]}, label=row["gold_label"])
        assert result["__typename"] == "ExampleSubmitted" and result["example"]["status"] == "open", result
        examples.append(result["example"]["id"])

    validator_ids = sorted({v for row in rows for ids in row["label_distribution"].values() for v in ids})
    tokens = {v: api.sign_up(f"dynasent_{v}"[:32]) for v in validator_ids}
    expected = {}
    for example_id, row in zip(examples, rows):
        votes = []
        label_of = {v: label for label, ids in row["label_distribution"].items() for v in ids}
        for validator in sorted(label_of):
            vote = "correct" if label_of[validator] == row["gold_label"] else "incorrect"
            result = api(
                "mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename } }",
                {"e": example_id, "l": vote.upper()},
                token=tokens[validator],
            )
            assert result["validateExample"]["__typename"] == "ExampleValidated"
            votes.append(Vote(vote))
        expected[example_id] = outcome(votes, 3)

    def statuses():
        from strawberry.relay import GlobalID

        rows_by_pk = {r["id"]: r["status"] for r in run_sql("SELECT id, status FROM examples")}
        return {e: rows_by_pk[int(GlobalID.from_id(e).node_id)] for e in examples}

    wait_until(lambda: statuses() == expected, timeout=120)
    # Gold labels are the validators' majority, so most examples validate; some with dissent may not.
    assert list(expected.values()).count("validated") >= N_EXAMPLES // 2
    assert run_sql("SELECT count(*) AS n FROM validations")[0]["n"] == 5 * N_EXAMPLES
