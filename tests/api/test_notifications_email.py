"""Email copies of notifications, through a real SMTP server (aiosmtpd): only the kinds a user opted into, only to a
verified address, sent by the worker."""

import pytest

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.notifications_helpers import inbox
from tests.api.recovery_helpers import SET_EMAIL, verified_account
from tests.api.smtp_helpers import MAIL_FROM, body, session_mailbox
from tests.conftest import run_sql, seed_builtin_tasks

VALIDATE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l, mode: OWNER) {
  __typename ... on Error { code message } } }"""
PREFERENCES = "{ notificationPreferences { emailKinds emailAvailable } }"
SET_PREFERENCES = """mutation($k: [NotificationKind!]!) { setNotificationPreferences(emailKinds: $k) {
  __typename ... on NotificationPreferencesSaved { preferences { emailKinds emailAvailable } } ... on Error { code message } } }"""


@pytest.fixture
def mailbox(api):
    box = session_mailbox()
    box.clear()
    return box


def _examples(api, token, texts):
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    return [fooling_example(api, token, round_id, context_id, text) for text in texts]


def _email_states() -> list[str]:
    return [r["email_state"] for r in run_sql("SELECT email_state FROM notifications")]


def test_opted_in_kinds_are_mailed_to_verified_addresses_only(api, target_models, admin_token, mailbox):
    seed_builtin_tasks()
    alice = verified_account(api, mailbox, "alice", "alice@example.org")
    bob = api.sign_up("bob")
    assert api(SET_EMAIL, {"e": "bob@example.org"}, token=bob)["setEmail"]["verificationSent"] is True
    assert "Confirm your email" in mailbox.take("bob@example.org")["Subject"]  # never opened: bob stays unverified
    assert api(PREFERENCES, token=alice)["notificationPreferences"] == {"emailKinds": [], "emailAvailable": True}
    saved = api(SET_PREFERENCES, {"k": ["EXAMPLE_VALIDATED", "EXAMPLE_VALIDATED", "MODEL_SCORED"]}, token=alice)
    assert saved["setNotificationPreferences"]["preferences"]["emailKinds"] == ["EXAMPLE_VALIDATED", "MODEL_SCORED"]
    assert api(SET_PREFERENCES, {"k": ["EXAMPLE_REJECTED"]}, token=bob)["setNotificationPreferences"]["__typename"] == (
        "NotificationPreferencesSaved"
    )

    kept, dropped = _examples(api, alice, ["The view was a delight.", "The queue was endless."])
    (rejected,) = _examples(api, bob, ["The soup was cold."])
    api(VALIDATE, {"e": kept["id"], "l": "CORRECT"}, token=admin_token)
    api(VALIDATE, {"e": dropped["id"], "l": "INCORRECT"}, token=admin_token)
    api(VALIDATE, {"e": rejected["id"], "l": "INCORRECT"}, token=admin_token)

    message = mailbox.take("alice@example.org")
    assert message["From"] == MAIL_FROM
    assert message["Subject"] == "Dynabench: Your example for Sentiment analysis was validated"
    assert "“The view was a delight.”" in body(message) and "Hello alice" in body(message)
    # Every copy settled (the positive signal): alice's validation sent, her rejection never queued (not opted in),
    # bob's rejection skipped (his address is not verified).
    wait_until(lambda: len(_email_states()) == 3 and "queued" not in _email_states())
    states = run_sql(
        "SELECT u.username, n.kind, n.email_state FROM notifications n JOIN users u ON u.id = n.recipient ORDER BY n.id"
    )
    assert sorted((r["username"], r["kind"], r["email_state"]) for r in states) == [
        ("alice", "example_rejected", "none"),
        ("alice", "example_validated", "sent"),
        ("bob", "example_rejected", "skipped"),
    ]
    assert mailbox.to("alice@example.org") == [] and mailbox.to("bob@example.org") == []
    assert len(inbox(api, alice)[0]) == 2 and len(inbox(api, bob)[0]) == 1
