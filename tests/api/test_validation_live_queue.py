"""The live validation queue's window and its waiting counts (server/graphql/annotation/validation_queue.py)."""

import json

from strawberry.relay import to_base64

from tests.api.examples_helpers import fooling_example, wait_until
from tests.api.test_validation import NEXT, VALIDATE, _next, _world, _ws
from tests.conftest import run_sql


def test_a_full_live_queue_gets_the_count_not_the_examples_then_is_filled_again_as_it_drains(stack, api, target_models):
    author, round_id, context_id, _ = _world(api, 1)
    run_sql(  # 24 open examples in all: 20 are sent, 4 wait beyond the validator's window
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, fooled, status) '
        'SELECT gen_random_uuid(), round, context, "user", input, model_output, model_name, fooled, status '
        "FROM examples, generate_series(1, 23) WHERE status = 'open'"
    )
    validator, voters = api.sign_up("window-validator"), [api.sign_up(f"window-voter{i}") for i in range(3)]
    ws = _ws(stack, validator)
    query = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds reset waiting { count capped } } }"
    ws.send(json.dumps({"id": "q", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}}))
    first = _next(ws)["examplesToValidate"]
    held = {e["id"] for e in first["added"]}
    assert first["reset"] and len(held) == 20 and first["waiting"] == {"count": 24, "capped": False}

    # A new example while the window is full: not sent; the count is, on its own.
    fooling_example(api, author, round_id, context_id, "One more review, beyond the window.")
    update = _next(ws)["examplesToValidate"]
    assert update == {"added": [], "removedIds": [], "reset": False, "waiting": {"count": 25, "capped": False}}

    # Other validators decide 11 of the held examples: each leaves; below half the window, it is filled again.
    decided = sorted(held)[:11]
    for example_id in decided:
        for voter in voters:
            api(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=voter)
    removed, added, counts = set(), set(), []
    while len(removed) < 11 or not added:
        update = _next(ws)["examplesToValidate"]
        removed |= set(update["removedIds"])
        added |= {e["id"] for e in update["added"]}
        if update["waiting"]:
            counts.append(update["waiting"]["count"])
    ws.close()
    assert removed == set(decided)
    assert added and not added & held  # the examples that waited beyond the window (no example twice)
    assert counts[-1] == 25 - 11
    assert len(held - removed | added) <= 20


def test_validators_due_together_get_each_their_own_waiting_count(stack, api, target_models):
    """The live queues of a process read the counts due on the same tick together (server/core/batched_reads.py):
    each validator still gets their own."""
    author, round_id, context_id, _ = _world(api, 1)
    run_sql(  # 24 open examples: each validator holds 20, the rest wait beyond the window
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, fooled, status) '
        'SELECT gen_random_uuid(), round, context, "user", input, model_output, model_name, fooled, status '
        "FROM examples, generate_series(1, 23) WHERE status = 'open'"
    )
    fresh, busy = api.sign_up("batch-fresh"), api.sign_up("batch-busy")
    voted = [row["id"] for row in run_sql("SELECT id FROM examples ORDER BY id DESC LIMIT 2")]
    for example_id in voted:
        vote = api(VALIDATE, {"e": to_base64("Example", example_id), "l": "CORRECT"}, token=busy)["validateExample"]
        assert vote["__typename"] == "ExampleValidated", vote
    wait_until(lambda: run_sql("SELECT bool_and(aggregated) AS done FROM validations")[0]["done"])
    query = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds waiting { count capped } } }"
    sockets = {}
    for name, token in (("fresh", fresh), ("busy", busy)):
        sockets[name] = _ws(stack, token)
        sockets[name].send(
            json.dumps({"id": "q", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}})
        )
    firsts = {name: _next(ws)["examplesToValidate"]["waiting"]["count"] for name, ws in sockets.items()}
    assert firsts == {"fresh": 24, "busy": 22}
    fooling_example(api, author, round_id, context_id, "One more review for both queues.")
    counts, removed = {}, set()
    for name, ws in sockets.items():
        update = _next(ws)["examplesToValidate"]
        while update["waiting"] is None:  # the news of busy's own votes, counted after they subscribed
            removed |= set(update["removedIds"])
            update = _next(ws)["examplesToValidate"]
        assert update["added"] == [] and update["removedIds"] == [], update
        counts[name] = update["waiting"]
    for ws in sockets.values():
        ws.close()
    assert removed <= {to_base64("Example", example_id) for example_id in voted}
    assert counts == {"fresh": {"count": 25, "capped": False}, "busy": {"count": 23, "capped": False}}


def test_an_example_leaving_the_queue_is_announced_only_to_validators_who_may_show_it(stack, api, target_models):
    """A decided example's removal goes to the validators who hold it in their live window, voted on it, or were handed
    it by nextExamplesToValidate, not to every validator of the round."""
    _, round_id, _, _ = _world(api, 1)
    run_sql(  # 24 open examples: each live window holds 20, 4 wait beyond it
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, fooled, status) '
        'SELECT gen_random_uuid(), round, context, "user", input, model_output, model_name, fooled, status '
        "FROM examples, generate_series(1, 23) WHERE status = 'open'"
    )
    watcher, handed, voters = (
        api.sign_up("only-watching"),
        api.sign_up("handed-all"),
        [api.sign_up(f"leave-voter{i}") for i in range(3)],
    )
    query = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds } }"
    sockets, held = {}, {}
    for name, token in (("watcher", watcher), ("handed", handed)):
        sockets[name] = _ws(stack, token)
        sockets[name].send(
            json.dumps({"id": "q", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}})
        )
        held[name] = {e["id"] for e in _next(sockets[name])["examplesToValidate"]["added"]}
    all_open = {e["id"] for e in api(NEXT, {"r": round_id, "n": 24}, token=handed)["nextExamplesToValidate"]}
    assert len(all_open) == 24 and held["watcher"] == held["handed"] and len(held["watcher"]) == 20
    beyond, inside = sorted(all_open - held["watcher"])[0], sorted(held["watcher"])[0]

    seen: dict[str, list[str]] = {"handed": [], "watcher": []}

    def removals(name: str, until: str) -> list[str]:
        while until not in seen[name]:
            seen[name] += _next(sockets[name])["examplesToValidate"]["removedIds"]
        return list(dict.fromkeys(seen[name]))  # a vote after the decision aggregates again: a removal may come twice

    def decide(example_id: str) -> None:
        for voter in voters:
            vote = api(VALIDATE, {"e": example_id, "l": "CORRECT"}, token=voter)["validateExample"]
            assert vote["__typename"] == "ExampleValidated", vote

    # The validator handed every example hears of each one leaving; the one beyond the windows is announced before
    # the other is decided, so the watcher, whose window held only the second, hears of that one alone.
    decide(beyond)
    assert removals("handed", beyond) == [beyond]
    decide(inside)
    assert removals("handed", inside)[-1] == inside
    assert removals("watcher", inside) == [inside]
    for ws in sockets.values():
        ws.close()


def test_an_example_its_author_retracts_leaves_the_live_queues_that_hold_it(stack, api, target_models):
    author, round_id, _, examples = _world(api, 2)
    validator = api.sign_up("retraction-watcher")
    ws = _ws(stack, validator)
    query = "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds } }"
    ws.send(json.dumps({"id": "q", "type": "subscribe", "payload": {"query": query, "variables": {"r": round_id}}}))
    assert {e["id"] for e in _next(ws)["examplesToValidate"]["added"]} == {e["id"] for e in examples}

    retract = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
    assert api(retract, {"e": examples[0]["id"]}, token=author)["retractExample"]["__typename"] == "ExampleChanged"
    assert _next(ws)["examplesToValidate"] == {"added": [], "removedIds": [examples[0]["id"]]}
    ws.close()
    # A vote sent before the removal arrived is refused, and says why.
    refused = api(VALIDATE, {"e": examples[0]["id"], "l": "CORRECT"}, token=validator)["validateExample"]
    assert refused["__typename"] != "ExampleValidated" and "retracted" in refused["message"], refused
