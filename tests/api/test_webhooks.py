"""Webhooks through GraphQL and a real receiver on 127.0.0.1: registration, signed deliveries of example and round
events, retries with the same event id, the delivery log, disabling after repeated failures and re-enabling, deletion.
(The session's stack allows private targets and retries fast: tests/conftest.py.)"""

import json
import time

import pytest
from strawberry.relay import GlobalID

from server.webhooks.signing import verify_signature
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.webhooks_helpers import CREATE, DELETE, DELIVERIES, LIST, UPDATE, Receiver
from tests.conftest import run_sql, seed_builtin_tasks

VALIDATE = """mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT, mode: OWNER) { __typename
  ... on Error { code message } } }"""
CLOSE = "mutation($r: ID!) { closeRound(roundId: $r) { __typename ... on Error { code message } } }"


@pytest.fixture
def receiver():
    served = Receiver()
    yield served
    served.close()


def _create(api, token, url, events, task="sentiment"):
    created = api(CREATE, {"t": task, "u": url, "e": events}, token=token)["createWebhook"]
    assert created["__typename"] == "WebhookCreated", created
    return created


def _deliveries(api, token, hook_id, first=20, after=None):
    data = api(DELIVERIES, {"id": hook_id, "n": first, "a": after}, token=token)["webhookDeliveries"]
    return [edge["node"] for edge in data["edges"]], data["pageInfo"]


def _signed(received, secret):
    assert verify_signature(secret, received.headers["x-dynabench-signature"], received.body, now=time.time())
    payload = json.loads(received.body)
    assert received.headers["x-dynabench-event"] == payload["type"]
    assert received.headers["x-dynabench-delivery"] == payload["id"]
    assert received.headers["content-type"] == "application/json"
    return payload


def _example_world(api):
    seed_builtin_tasks()
    author = api.sign_up("hook-author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    return author, round_id, context_id


def test_example_events_are_delivered_signed_and_logged(api, admin_token, target_models, receiver):
    author, round_id, context_id = _example_world(api)
    created = _create(api, admin_token, receiver.url, ["EXAMPLE_CREATED", "EXAMPLE_VALIDATED"])
    secret, hook = created["secret"], created["webhook"]
    assert secret.startswith("whsec_") and len(secret) > 40
    assert hook["enabled"] and hook["events"] == ["EXAMPLE_CREATED", "EXAMPLE_VALIDATED"]
    listed = api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"]] and secret not in json.dumps(listed)
    assert secret not in json.dumps(run_sql("SELECT * FROM webhooks"), default=str)  # only its salt is stored

    example = fooling_example(api, author, round_id, context_id, "The plot was a masterpiece of boredom.")
    first = receiver.wait_for(1)[0]
    assert first.path == "/hook"
    payload = _signed(first, secret)
    assert payload["type"] == "example.created" and payload["task"] == "sentiment"
    assert payload["data"]["example"] == {"id": example["id"], "status": "open", "fooled": True}
    assert payload["data"]["round"] == {"id": round_id, "number": 1}
    assert payload["occurred_at"]

    assert api(VALIDATE, {"e": example["id"]}, token=admin_token)["validateExample"]["__typename"] == "ExampleValidated"
    second = _signed(receiver.wait_for(2)[1], secret)
    assert second["type"] == "example.validated" and second["id"] != payload["id"]
    assert second["data"]["example"] == {"id": example["id"], "status": "validated"}

    deliveries = wait_until(
        lambda: (d := _deliveries(api, admin_token, hook["id"])[0]) and all(x["status"] == "DELIVERED" for x in d) and d
    )
    assert [d["event"] for d in deliveries] == ["EXAMPLE_VALIDATED", "EXAMPLE_CREATED"]  # newest first
    assert [d["eventId"] for d in deliveries] == [second["id"], payload["id"]]
    assert deliveries[1]["payload"].encode() == first.body
    for delivery in deliveries:
        assert delivery["attemptCount"] == 1 and delivery["lastStatusCode"] == 200 and delivery["deliveredAt"]
        assert [(a["number"], a["statusCode"], a["error"]) for a in delivery["attempts"]] == [(1, 200, None)]
    page, info = _deliveries(api, admin_token, hook["id"], first=1)
    assert [d["eventId"] for d in page] == [second["id"]] and info["hasNextPage"]
    rest, info = _deliveries(api, admin_token, hook["id"], first=1, after=info["endCursor"])
    assert [d["eventId"] for d in rest] == [payload["id"]] and not info["hasNextPage"]


def test_a_failed_attempt_is_retried_with_the_same_event(api, admin_token, target_models, receiver):
    seed_builtin_tasks()
    receiver.answer(500)  # the first attempt fails, the retry succeeds
    created = _create(api, admin_token, receiver.url, ["ROUND_CLOSED"])
    round_id = current_round(api, "sentiment")
    assert api(CLOSE, {"r": round_id}, token=admin_token)["closeRound"]["__typename"] == "RoundClosed"
    failed, retried = receiver.wait_for(2)
    assert failed.body == retried.body  # the same event, byte for byte; each attempt signed afresh
    payload = _signed(retried, created["secret"])
    _signed(failed, created["secret"])
    assert payload["type"] == "round.closed" and payload["data"]["round"]["id"] == round_id

    hook_id = created["webhook"]["id"]
    delivery = wait_until(lambda: (d := _deliveries(api, admin_token, hook_id)[0]) and d[0]["status"] == "DELIVERED" and d[0])
    assert delivery["eventId"] == payload["id"] and delivery["attemptCount"] == 2
    assert [(a["number"], a["statusCode"], a["error"]) for a in delivery["attempts"]] == [(1, 500, "HTTP 500"), (2, 200, None)]
    # Closing a closed round again changes nothing and tells nobody: no second delivery row.
    assert api(CLOSE, {"r": round_id}, token=admin_token)["closeRound"]["__typename"] == "RoundClosed"
    assert len(_deliveries(api, admin_token, hook_id)[0]) == 1


def test_repeated_failures_disable_the_hook_until_an_owner_enables_it(api, admin_token, target_models, receiver):
    author, round_id, context_id = _example_world(api)
    receiver.answer(default=500)
    created = _create(api, admin_token, receiver.url, ["EXAMPLE_CREATED"])
    hook_id = created["webhook"]["id"]
    for text in ("Dull and slow, a triumph.", "A wonderful disaster of a film."):
        fooling_example(api, author, round_id, context_id, text)
    receiver.wait_for(6)  # two deliveries, three attempts each (WEBHOOK_MAX_ATTEMPTS)

    hook = wait_until(lambda: (h := api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"][0]) and not h["enabled"] and h)
    assert hook["consecutiveFailures"] == 2 and hook["disabledAt"]
    assert "Disabled after 2 deliveries in a row failed" in hook["disabledReason"] and "HTTP 500" in hook["disabledReason"]
    deliveries = _deliveries(api, admin_token, hook_id)[0]
    assert [(d["status"], d["attemptCount"], d["nextAttemptAt"]) for d in deliveries] == [("FAILED", 3, None)] * 2
    assert all([a["statusCode"] for a in d["attempts"]] == [500, 500, 500] for d in deliveries)

    receiver.answer(default=200)
    enabled = api(UPDATE, {"id": hook_id, "on": True}, token=admin_token)["updateWebhook"]["webhook"]
    assert enabled["enabled"] and enabled["consecutiveFailures"] == 0 and enabled["disabledReason"] is None
    example = fooling_example(api, author, round_id, context_id, "Truly the worst best movie.")
    delivered = _signed(receiver.wait_for(7)[6], created["secret"])
    assert delivered["data"]["example"]["id"] == example["id"]

    # An owner may disable a hook too; the reason says who.
    disabled = api(UPDATE, {"id": hook_id, "on": False}, token=admin_token)["updateWebhook"]["webhook"]
    assert not disabled["enabled"] and disabled["disabledReason"] == "Disabled by an owner of the task."


def test_changing_and_deleting_hooks(api, admin_token, receiver):
    seed_builtin_tasks()
    owner = api.sign_up("hook-owner")
    stranger = api.sign_up("hook-stranger")
    created = _create(api, admin_token, receiver.url, ["MODEL_SCORED"])
    hook_id = created["webhook"]["id"]

    changed = api(
        UPDATE, {"id": hook_id, "e": ["MODEL_FAILED", "MODEL_DEPLOYED", "MODEL_FAILED"], "d": " Slack relay "}, token=admin_token
    )["updateWebhook"]
    assert (
        changed["webhook"]["events"] == ["MODEL_DEPLOYED", "MODEL_FAILED"] and changed["webhook"]["description"] == "Slack relay"
    )
    refused = api(UPDATE, {"id": hook_id, "e": []}, token=admin_token)["updateWebhook"]
    assert refused["__typename"] == "InputError" and refused["fields"][0]["field"] == "events"
    refused = api(UPDATE, {"id": hook_id, "u": "ftp://127.0.0.1/"}, token=admin_token)["updateWebhook"]
    assert refused["__typename"] == "InputError" and refused["fields"] == [
        {"field": "url", "message": "Webhook URLs must start with https://."}
    ]
    assert api(UPDATE, {"id": hook_id, "on": False}, token=stranger)["updateWebhook"]["code"] == "FORBIDDEN"
    assert api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"][0]["events"] == ["MODEL_DEPLOYED", "MODEL_FAILED"]
    assert api.errors(LIST, {"t": "sentiment"}, token=owner)[0]["extensions"]["code"] == "FORBIDDEN"

    for i in range(9):  # WEBHOOKS_PER_TASK (10) hooks at most
        _create(api, admin_token, f"{receiver.url}/{i}", ["ROUND_OPENED"])
    full = api(CREATE, {"t": "sentiment", "u": receiver.url, "e": ["ROUND_OPENED"]}, token=admin_token)["createWebhook"]
    assert full["__typename"] == "ConflictError" and "at most 10 webhooks" in full["message"]

    deleted = api(DELETE, {"id": hook_id}, token=admin_token)["deleteWebhook"]
    assert deleted == {"__typename": "WebhookDeleted", "id": hook_id}
    assert hook_id not in [h["id"] for h in api(LIST, {"t": "sentiment"}, token=admin_token)["webhooks"]]
    assert api(DELETE, {"id": hook_id}, token=admin_token)["deleteWebhook"]["code"] == "NOT_FOUND"
    assert api.errors(DELIVERIES, {"id": hook_id}, token=admin_token)[0]["extensions"]["code"] == "NOT_FOUND"
    wrong = api(DELETE, {"id": str(GlobalID("Task", "1"))}, token=admin_token)["deleteWebhook"]
    assert wrong["__typename"] == "InputError"
