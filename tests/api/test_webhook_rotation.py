"""Rotating a webhook's signing secret (issue #18 point 8): the new secret is shown once; during the grace period each
delivery carries a second signature made with the previous secret, so a receiver can switch without losing a delivery;
with no grace period (after a leak) the old secret stops signing at once."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from server.webhooks.signing import verify_signature
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit
from tests.api.webhooks_helpers import CREATE, LIST, Receiver
from tests.conftest import run_sql, seed_builtin_tasks

ROTATE = """mutation($id: ID!, $h: Int!) { rotateWebhookSecret(webhookId: $id, keepPreviousHours: $h) { __typename
  ... on WebhookSecretRotated { secret previousSecretValidUntil webhook { id previousSecretValidUntil } }
  ... on InputError { fields { field message } } ... on Error { code message } } }"""


@pytest.fixture
def receiver():
    served = Receiver()
    yield served
    served.close()


def _verifies(received, secret) -> bool:
    return verify_signature(secret, received.headers["x-dynabench-signature"], received.body, now=time.time())


def test_rotation_signs_with_both_secrets_during_the_grace_period_then_only_the_new(api, admin_token, target_models, receiver):
    seed_builtin_tasks()
    author = api.sign_up("rotation-author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    created = api(CREATE, {"t": "sentiment", "u": receiver.url, "e": ["EXAMPLE_CREATED"]}, token=admin_token)["createWebhook"]
    first_secret, hook_id = created["secret"], created["webhook"]["id"]

    rotated = api(ROTATE, {"id": hook_id, "h": 24}, token=admin_token)["rotateWebhookSecret"]
    assert rotated["__typename"] == "WebhookSecretRotated", rotated
    second_secret = rotated["secret"]
    assert second_secret.startswith("whsec_") and second_secret != first_secret
    until = datetime.fromisoformat(rotated["previousSecretValidUntil"])
    assert timedelta(hours=23) < until - datetime.now(UTC) <= timedelta(hours=24)
    listed = api(LIST.replace("url", "url previousSecretValidUntil"), {"t": "sentiment"}, token=admin_token)["webhooks"]
    assert listed[0]["previousSecretValidUntil"] == rotated["previousSecretValidUntil"]
    assert second_secret not in str(listed)

    submit(api, author, round_id, context_id, {"statement": "A first example after the rotation."}, label="positive")
    delivered = receiver.wait_for(1)[0]
    assert delivered.headers["x-dynabench-signature"].count("v1=") == 2
    assert _verifies(delivered, second_secret) and _verifies(delivered, first_secret)

    # After a leak: no grace period, the old secret stops signing at once.
    leaked = api(ROTATE, {"id": hook_id, "h": 0}, token=admin_token)["rotateWebhookSecret"]
    assert leaked["__typename"] == "WebhookSecretRotated" and leaked["previousSecretValidUntil"] is None, leaked
    third_secret = leaked["secret"]
    submit(api, author, round_id, context_id, {"statement": "A second example after the leak."}, label="positive")
    delivered = receiver.wait_for(2)[1]
    assert delivered.headers["x-dynabench-signature"].count("v1=") == 1
    assert _verifies(delivered, third_secret)
    assert not _verifies(delivered, second_secret) and not _verifies(delivered, first_secret)
    assert run_sql("SELECT previous_secret_salt FROM webhooks")[0]["previous_secret_salt"] is None


def test_a_grace_period_beyond_a_week_is_refused_and_changes_nothing(api, admin_token, receiver):
    seed_builtin_tasks()
    created = api(CREATE, {"t": "sentiment", "u": receiver.url, "e": ["ROUND_CLOSED"]}, token=admin_token)["createWebhook"]
    before = run_sql("SELECT secret_salt, previous_secret_salt FROM webhooks")
    for hours in (169, -1):
        refused = api(ROTATE, {"id": created["webhook"]["id"], "h": hours}, token=admin_token)["rotateWebhookSecret"]
        assert refused["__typename"] == "InputError" and refused["fields"][0]["field"] == "keepPreviousHours", refused
    assert run_sql("SELECT secret_salt, previous_secret_salt FROM webhooks") == before
