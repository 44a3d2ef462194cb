"""Fuzzing the webhook mutations (issue #18): createWebhook, updateWebhook, rotateWebhookSecret and,
last, deleteWebhook.

The module's world adds alice's hook on alpha and bob's on beta (a closed port on 127.0.0.1: the session allows private
targets, and no event the fuzzers cause is one the hooks listen to), so update and delete have targets they can
succeed on and targets they must be refused."""

import pytest
from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases

CREATED = "{ __typename ... on WebhookCreated { webhook { id } } ... on Error { code message } }"


def _hook(world, owner: str, task: str) -> None:
    data = world.gql(
        f"mutation($t: String!, $u: String!) {{ createWebhook(taskCode: $t, url: $u, events: [MODEL_SCORED]) {CREATED} }}",
        {"t": task, "u": f"http://127.0.0.1:9/{task}"},
        owner,
    )
    assert data["createWebhook"]["__typename"] == "WebhookCreated", data
    world.refs[f"webhook:{task}"] = data["createWebhook"]["webhook"]["id"]


@pytest.fixture(scope="module", autouse=True)
def hooks(world):
    _hook(world, "alice", "alpha")
    _hook(world, "bob", "beta")


@pytest.fixture(autouse=True)
def few_hooks(world):
    """Successful creations would soon fill a task's quota of hooks (every later one a ConflictError): keep the two."""
    yield
    world.db.fetch("DELETE FROM webhooks WHERE url NOT IN ('http://127.0.0.1:9/alpha', 'http://127.0.0.1:9/beta')")


@FUZZ
@example(Case("createWebhook", "alice", {"taskCode": Ref("code:alpha"), "url": "https://a.example.org/\x00", "events": []}))
@example(
    Case("createWebhook", "bob", {"taskCode": Ref("code:alpha"), "url": "https://a.example.org/", "events": ["ROUND_OPENED"]})
)
@example(Case("createWebhook", "alice", {"taskCode": Ref("code:alpha"), "url": "https://a.example.org/", "events": ["ROUND_OPENED"], "description": "\ud800"}))  # fmt: skip
@given(case=cases("createWebhook"))
def test_create_webhook(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("updateWebhook", "bob", {"webhookId": Ref("webhook:alpha"), "enabled": False}))
@example(Case("updateWebhook", "alice", {"webhookId": Ref("webhook:alpha"), "url": "javascript:alert(1)"}))
@example(Case("updateWebhook", "alice", {"webhookId": Ref("example:carol:alpha"), "enabled": True}))
@given(case=cases("updateWebhook"))
def test_update_webhook(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("rotateWebhookSecret", "bob", {"webhookId": Ref("webhook:alpha"), "keepPreviousHours": 1}))
@example(Case("rotateWebhookSecret", "alice", {"webhookId": Ref("webhook:alpha"), "keepPreviousHours": -1}))
@example(Case("rotateWebhookSecret", "alice", {"webhookId": Ref("webhook:alpha"), "keepPreviousHours": 2**31 - 1}))
@given(case=cases("rotateWebhookSecret"))
def test_rotate_webhook_secret(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("deleteWebhook", "bob", {"webhookId": Ref("webhook:alpha")}))
@given(case=cases("deleteWebhook"))
def test_delete_webhook(fuzzer, case):
    fuzzer.send(case)
