"""Gold items give nothing away (docs/design.md §4.2, issue #17 point 4): they are never listed by the
examplesToValidate connection nor pushed by the live examplesToValidate subscription (only the gold mix of
nextExamplesToValidate serves them), and an uploaded gold row is judged by the round's real target model like a
submission: the validator sees its model output. A Triton outage at upload loses nothing: the rows wait as pending
(never served meanwhile) and the pending-example worker gives them their output, moving no counter."""

import json

from strawberry.relay import GlobalID

from tests.api.examples_helpers import NEXT_CONTEXT, fooling_example, submit, wait_until
from tests.api.models_helpers import multipart
from tests.api.test_gold import MARK, _configure
from tests.api.test_gold import _world as gold_world
from tests.api.test_gold_upload import ROUND, UPLOAD
from tests.api.test_validation import _next, _ws
from tests.conftest import run_sql, target_triton_stopped

SHOWN = "id fooled status input modelName modelVersion modelOutput"
NEXT = f"query($r: ID!, $n: Int!) {{ nextExamplesToValidate(roundId: $r, first: $n) {{ {SHOWN} }} }}"
LISTED = "query($r: ID!) { examplesToValidate(roundId: $r, first: 50) { edges { node { id } } } }"
LIVE = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds } }"
GOLD_TEXT = "The service was slow, the food cold, and yet I would go back tomorrow."


def _world(api):
    owner, author, round_id, _ = gold_world(api, 0)
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    return owner, author, round_id, context_id


def _upload(api, owner, round_id, *rows):
    content = "\n".join(json.dumps(row) for row in rows).encode()
    uploaded = multipart(api, UPLOAD, {"r": round_id}, "f", content, "gold.jsonl", owner)["uploadGold"]
    assert uploaded["__typename"] == "GoldUploaded", uploaded
    return uploaded["examples"]


def _subscribe(stack, token, round_id):
    ws = _ws(stack, token)
    ws.send(json.dumps({"id": "q", "type": "subscribe", "payload": {"query": LIVE, "variables": {"r": round_id}}}))
    return ws


def _predicted(api, token, round_id, context_id, text):
    """The round's model's label for `text`, asked through a sandbox submission (nothing stored)."""
    return submit(api, token, round_id, context_id, {"statement": text}, label="positive", sandbox=True)["predictions"][0][
        "label"
    ]


def _served_gold(api, token, round_id, wanted: set[str]) -> dict[str, dict]:
    """Draw single items from the validator's queue (gold rate 0.5) until each wanted gold item was served once."""
    found: dict[str, dict] = {}
    for _ in range(80):  # each draw is gold with probability 0.5 while unanswered gold remains
        for item in api(NEXT, {"r": round_id, "n": 1}, token=token)["nextExamplesToValidate"]:
            if item["id"] in wanted:
                found[item["id"]] = item
        if set(found) == wanted:
            return found
    raise AssertionError(f"gold items never served: {wanted - set(found)}")


def _pk(global_id: str) -> int:
    return int(GlobalID.from_id(global_id).node_id)


def test_gold_is_neither_listed_nor_in_the_live_snapshot(stack, api, target_models):
    owner, author, round_id, context_id = _world(api)
    regular = fooling_example(api, author, round_id, context_id, "An ordinary review that fools the model, surely.")
    marked = fooling_example(api, author, round_id, context_id, "A review the owner turns into a check item.")
    assert api(MARK, {"e": marked["id"], "a": "CORRECT"}, token=owner)["markGold"]["__typename"] == "GoldMarked"
    [uploaded] = _upload(api, owner, round_id, {"fields": {"statement": GOLD_TEXT}, "label": "negative", "gold": "incorrect"})
    validator = api.sign_up("validator")

    # The connection lists only the ordinary example.
    edges = api(LISTED, {"r": round_id}, token=validator)["examplesToValidate"]["edges"]
    assert [e["node"]["id"] for e in edges] == [regular["id"]]

    # So does the live queue's first snapshot; a new ordinary example is then pushed as usual.
    queue = _subscribe(stack, validator, round_id)
    assert _next(queue)["examplesToValidate"] == {"added": [{"id": regular["id"]}], "removedIds": []}
    newcomer = fooling_example(api, author, round_id, context_id, "Another ordinary review, just as tricky.")
    assert _next(queue)["examplesToValidate"] == {"added": [{"id": newcomer["id"]}], "removedIds": []}
    queue.close()

    # Gold reaches the validator only through the gold mix, and then in the same shape as any item.
    _configure(gold_rate=0.5)
    served = _served_gold(api, validator, round_id, {marked["id"], uploaded["id"]})
    assert {tuple(sorted(item)) for item in served.values()} == {tuple(sorted(SHOWN.split()))}


def test_uploaded_gold_carries_the_round_models_output_like_a_submission(api, target_models):
    owner, author, round_id, context_id = _world(api)
    predicted = _predicted(api, author, round_id, context_id, GOLD_TEXT)
    label = next(label for label in ("negative", "positive", "neutral") if label != predicted)  # fooling: in the queue
    [uploaded] = _upload(api, owner, round_id, {"fields": {"statement": GOLD_TEXT}, "label": label, "gold": "correct"})
    assert uploaded["status"] == "open"
    # The same text and label written as an ordinary submission, judged by the same real model.
    written = submit(api, author, round_id, context_id, {"statement": GOLD_TEXT}, label=label)
    assert written["__typename"] == "ExampleSubmitted", written
    regular = written["example"]

    _configure(gold_rate=0.5)
    validator = api.sign_up("validator")
    gold = _served_gold(api, validator, round_id, {uploaded["id"]})[uploaded["id"]]
    assert gold["modelOutput"] is not None
    for shown in ("modelName", "modelVersion", "modelOutput", "fooled", "status", "input"):
        assert gold[shown] == regular[shown], (shown, gold[shown], regular[shown])
    # Judging the gold row moved no counter of the round: only the ordinary example counts.
    assert api(ROUND, {"r": round_id})["node"]["totalCollected"] == 1


def test_gold_uploaded_during_a_triton_outage_waits_then_gets_its_output(stack, api, target_models):
    owner, author, round_id, context_id = _world(api)
    regular = fooling_example(api, author, round_id, context_id, "A plain review written before the outage.")
    predicted = _predicted(api, author, round_id, context_id, GOLD_TEXT)
    other = next(label for label in ("negative", "positive", "neutral") if label != predicted)
    marked_text = "Written while the model is away, then marked as a check item."
    marked_predicted = _predicted(api, author, round_id, context_id, marked_text)
    marked_label = next(label for label in ("negative", "positive", "neutral") if label != marked_predicted)
    _configure(gold_rate=0.5)
    validator = api.sign_up("validator")
    queue = _subscribe(stack, validator, round_id)
    assert _next(queue)["examplesToValidate"] == {"added": [{"id": regular["id"]}], "removedIds": []}

    with target_triton_stopped(stack):
        [uploaded] = _upload(api, owner, round_id, {"fields": {"statement": GOLD_TEXT}, "label": other, "gold": "correct"})
        marked = submit(api, author, round_id, context_id, {"statement": marked_text}, label=marked_label)
        assert uploaded["status"] == "pending" and marked["verdict"] == "PENDING", (uploaded, marked)
        assert api(MARK, {"e": marked["example"]["id"], "a": "CORRECT"}, token=owner)["markGold"]["__typename"] == "GoldMarked"
        # Nothing was lost, and a gold item without its model's answer is never served (it would stand out).
        stored = run_sql("SELECT model_output, fooled, status FROM examples WHERE id = $1", _pk(uploaded["id"]))
        assert stored == [{"model_output": None, "fooled": None, "status": "pending"}]
        for _ in range(10):  # had they been servable, each call would serve one with probability 3/4
            served = api(NEXT, {"r": round_id, "n": 5}, token=validator)["nextExamplesToValidate"]
            assert [item["id"] for item in served] == [regular["id"]]

    # The pending-example worker judges both once the model is back.
    judged = "SELECT count(*) AS n FROM examples WHERE id = ANY($1::int[]) AND status <> 'pending'"
    ids = [_pk(uploaded["id"]), _pk(marked["example"]["id"])]
    wait_until(lambda: run_sql(judged, ids)[0]["n"] == 2, timeout=180, interval=0.5)
    # Neither gold item was pushed to the live queue when judged: the next push is the next ordinary example.
    newcomer = fooling_example(api, author, round_id, context_id, "A review written after the outage ended.")
    assert _next(queue)["examplesToValidate"] == {"added": [{"id": newcomer["id"]}], "removedIds": []}
    queue.close()

    # Served now, with the real model's answer and verdict; the uploaded row moved no counter.
    gold = _served_gold(api, validator, round_id, {uploaded["id"], marked["example"]["id"]})[uploaded["id"]]
    assert gold["status"] == "open" and gold["modelOutput"]["label"] == predicted and gold["fooled"] is True, gold
    assert gold["modelName"] == regular["modelName"] and gold["modelVersion"] == regular["modelVersion"]
    totals = api(ROUND, {"r": round_id})["node"]
    assert totals == {"totalCollected": 3, "totalFooled": 3}, totals
