"""Webhook events built from the rows their callers hold, and the delivery-time guard (no stack: nothing here
reaches a database, Redis or the network)."""

import asyncio

from server.webhooks.dispatch import example_created, example_decided, global_id, model_changed, round_closed
from server.webhooks.sender import send


def _model(status, *previous):
    log = [{"status": s, "message": "", "at": ""} for s in (*previous, status)]
    return {"id": 7, "task": 3, "name": "mine", "status": status, "status_log": log}


def test_model_events_are_deployed_scored_and_failed_only():
    assert model_changed(_model("deployed", "uploaded", "deploying", "deploying")).type == "model.deployed"
    assert model_changed(_model("evaluated", "deployed", "evaluating")).type == "model.scored"
    assert model_changed(_model("failed", "deploying")).type == "model.failed"
    for status in ("uploaded", "deploying", "evaluating", "not_ranked"):
        assert model_changed(_model(status, "uploaded")) is None
    # Back to deployed after an interrupted evaluation, or re-queued from not ranked: no new deployment.
    assert model_changed(_model("deployed", "deploying", "deployed", "evaluating")) is None
    assert model_changed(_model("deployed", "not_ranked")) is None
    event = model_changed(_model("failed", "deploying"))
    assert event.task_id == 3 and event.data == {"model": {"id": global_id("Model", 7), "name": "mine", "status": "failed"}}


def test_example_and_round_events():
    created = example_created({"id": 5, "round": 2, "status": "pending", "fooled": None})
    assert created.type == "example.created" and created.round_id == 2 and created.task_id is None
    assert created.data["example"]["id"] == "RXhhbXBsZTo1"  # the GraphQL id: base64 of "Example:5"
    assert example_decided(5, 2, 3, "validated").type == "example.validated"
    assert example_decided(5, 2, 3, "rejected").type == "example.rejected"
    assert example_decided(5, 2, 3, "flagged") is None and example_decided(5, 2, 3, "open") is None
    closed = round_closed({"id": 2, "task": 3})
    assert (closed.type, closed.task_id, closed.round_id) == ("round.closed", 3, 2)
    assert closed.id != round_closed({"id": 2, "task": 3}).id  # every event its own id


def test_delivery_refuses_private_targets_before_connecting():
    for url in ("https://127.0.0.1:1/", "https://2130706433:1/", "http://93.184.216.34/"):
        sent = asyncio.run(send(url, b"{}", {}, timeout_s=1, allow_private=False))
        assert sent.status_code is None and not sent.ok and sent.error, url
    assert "resolves to a private" in asyncio.run(send("https://2130706433:1/", b"{}", {}, 1, False)).error
