"""An account's optional email, verified by a link mailed through a real SMTP server (aiosmtpd): setEmail, verifyEmail,
and who sees the address."""

import pytest

from tests.api.recovery_helpers import ME, SET_EMAIL, VERIFY, verified_account
from tests.api.smtp_helpers import MAIL_FROM, body, session_mailbox, token_in
from tests.conftest import run_sql

NODE_EMAIL = "query($id: ID!) { node(id: $id) { ... on User { username email emailVerified } } }"


@pytest.fixture
def mailbox(api):
    box = session_mailbox()
    box.clear()
    return box


def test_a_new_email_is_unverified_until_the_mailed_link_is_opened_once(api, mailbox):
    session = api.sign_up("mira")
    answer = api(SET_EMAIL, {"e": " Mira@Example.ORG "}, token=session)["setEmail"]
    assert answer == {
        "__typename": "EmailSet",
        "verificationSent": True,
        "user": {"email": "mira@example.org", "emailVerified": False},
    }
    message = mailbox.take("mira@example.org")
    assert message["From"] == MAIL_FROM and "Confirm your email" in message["Subject"]
    assert "mira" in body(message)
    token = token_in(message)
    assert run_sql("SELECT count(*) AS n FROM account_tokens WHERE token_hash LIKE $1", f"%{token}%")[0]["n"] == 0  # hashed

    assert api(VERIFY, {"t": token})["verifyEmail"] == {"__typename": "EmailVerified", "email": "mira@example.org"}
    assert api(ME, token=session)["me"] == {"username": "mira", "email": "mira@example.org", "emailVerified": True}
    again = api(VERIFY, {"t": token})["verifyEmail"]
    assert again["__typename"] == "InputError" and again["code"] == "INVALID_INPUT"

    # Setting the same address again keeps it verified and mails nothing.
    same = api(SET_EMAIL, {"e": "mira@example.org"}, token=session)["setEmail"]
    assert same["verificationSent"] is False and same["user"]["emailVerified"] is True


def test_the_email_is_seen_by_its_owner_and_admins_only(api, mailbox, admin_token):
    session = verified_account(api, mailbox, "owner", "owner@example.org")
    user_id = api("{ me { id } }", token=session)["me"]["id"]
    other = api.sign_up("curious")
    for token, seen in ((session, "owner@example.org"), (admin_token, "owner@example.org"), (other, None), (None, None)):
        node = api(NODE_EMAIL, {"id": user_id}, token=token)["node"]
        assert node == {"username": "owner", "email": seen, "emailVerified": seen is not None}, token


def test_changing_the_email_unverifies_it_and_ends_the_earlier_link(api, mailbox):
    session = api.sign_up("mover")
    api(SET_EMAIL, {"e": "old@example.org"}, token=session)
    first = token_in(mailbox.take("old@example.org"))
    api(SET_EMAIL, {"e": "new@example.org"}, token=session)
    second = token_in(mailbox.take("new@example.org"))
    assert api(VERIFY, {"t": first})["verifyEmail"]["__typename"] == "InputError"
    assert api(VERIFY, {"t": second})["verifyEmail"]["email"] == "new@example.org"
    api(SET_EMAIL, {"e": "newer@example.org"}, token=session)
    assert api(ME, token=session)["me"]["emailVerified"] is False
    mailbox.take("newer@example.org")
    removed = api(SET_EMAIL, {"e": None}, token=session)["setEmail"]
    assert removed["user"] == {"email": None, "emailVerified": False} and removed["verificationSent"] is False


def test_an_address_is_verified_by_one_account_only(api, mailbox):
    first, second = api.sign_up("first"), api.sign_up("second")
    api(SET_EMAIL, {"e": "shared@example.org"}, token=first)
    api(SET_EMAIL, {"e": "shared@example.org"}, token=second)  # an unverified claim: no conflict, nothing revealed
    tokens = [token_in(mailbox.take("shared@example.org")) for _ in range(2)]
    results = [api(VERIFY, {"t": token})["verifyEmail"]["__typename"] for token in tokens]
    assert sorted(results) == ["ConflictError", "EmailVerified"]


def test_an_expired_verification_link_is_refused(api, mailbox):
    session = api.sign_up("slow")
    api(SET_EMAIL, {"e": "slow@example.org"}, token=session)
    token = token_in(mailbox.take("slow@example.org"))
    run_sql("UPDATE account_tokens SET expires_at = now() - interval '1 minute'")
    refused = api(VERIFY, {"t": token})["verifyEmail"]
    assert refused["__typename"] == "InputError" and "expired" in refused["message"]
    assert api(ME, token=session)["me"]["emailVerified"] is False


def test_bad_addresses_and_tokens_are_input_errors(api, mailbox):
    session = api.sign_up("typo")
    bad = api(SET_EMAIL, {"e": "not an address"}, token=session)["setEmail"]
    assert bad["__typename"] == "InputError" and bad["fields"] == [{"field": "email", "message": "is not an email address"}]
    for token in ("", "garbage", "0123456789abcdef.nope", "x" * 5000):
        assert api(VERIFY, {"t": token})["verifyEmail"]["__typename"] == "InputError", token
    anonymous = api(SET_EMAIL, {"e": "a@example.org"})["setEmail"]
    assert anonymous["__typename"] == "AuthenticationError"
