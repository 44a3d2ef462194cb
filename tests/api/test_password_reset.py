"""Password resets through a real SMTP server (aiosmtpd): the same answer for any account, a single-use expiring link
mailed to a verified address only, sessions ended by the reset, limits per account; without mail, an admin's link."""

import pytest

from server.graphql.core.websocket import CLOSE_CREDENTIALS
from tests.api.recovery_helpers import (
    ISSUE,
    LOG_IN,
    ME,
    REQUEST,
    RESET,
    SET_EMAIL,
    api_with,
    verified_account,
    wait_for_queued_jobs,
)
from tests.api.smtp_helpers import body, session_mailbox, token_in
from tests.conftest import GraphQLClient, run_sql, seed_builtin_tasks
from tests.security.holes_helpers import Socket

NEW_PASSWORD = "a brand new password"


@pytest.fixture
def mailbox(api):
    box = session_mailbox()
    box.clear()
    return box


def _log_in(api, username, password):
    return api(LOG_IN, {"u": username, "p": password})["logIn"]


def test_a_mailed_reset_link_sets_a_new_password_once_and_ends_the_sessions(api, mailbox):
    session = verified_account(api, mailbox, "forgetful", "forgetful@example.org")
    answer = api(REQUEST, {"w": "Forgetful"})["requestPasswordReset"]
    assert answer["__typename"] == "PasswordResetRequested" and answer["byAdmin"] is False
    message = mailbox.take("forgetful@example.org")
    assert "Reset your Dynabench password" in message["Subject"] and "forgetful" in body(message)
    token = token_in(message)
    assert f"/#/reset-password?token={token}" in body(message)

    done = api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]
    assert done == {"__typename": "PasswordResetDone", "username": "forgetful"}
    # The session from before the reset is over, on the account read and on scope-only reads alike.
    for query in (ME, "{ tasks { edges { node { code } } } }"):
        errors = api.errors(query, token=session)
        assert errors and errors[0]["extensions"]["code"] == "AUTHENTICATION_FAILED", query
    assert _log_in(api, "forgetful", "correct horse battery")["__typename"] == "AuthenticationError"
    fresh = _log_in(api, "forgetful", NEW_PASSWORD)
    assert fresh["__typename"] == "AuthPayload"
    assert api(ME, token=fresh["token"])["me"]["username"] == "forgetful"

    again = api(RESET, {"t": token, "p": "yet another password"})["resetPassword"]
    assert again["__typename"] == "InputError" and again["code"] == "INVALID_INPUT"
    assert _log_in(api, "forgetful", NEW_PASSWORD)["__typename"] == "AuthPayload"


def test_the_mail_speaks_the_language_of_the_request_that_asked_for_it(api, mailbox):
    verified_account(api, mailbox, "lectora", "lectora@example.org")
    response = api.http.post(
        "/graphql", json={"query": REQUEST, "variables": {"w": "lectora"}}, headers={"Accept-Language": "es-AR,es;q=0.9"}
    )
    assert response.json()["data"]["requestPasswordReset"]["__typename"] == "PasswordResetRequested"
    message = mailbox.take("lectora@example.org")
    assert message["Subject"] == "Restablece tu contraseña de Dynabench"
    assert body(message).startswith("Hola, lectora:") and "Funciona una sola vez" in body(message)
    token = token_in(message)  # the link and the code are the same in every language
    assert api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]["__typename"] == "PasswordResetDone"


def test_a_reset_closes_the_sockets_open_with_the_accounts_sessions(stack, api, mailbox):
    seed_builtin_tasks()
    session = verified_account(api, mailbox, "watcher", "watcher@example.org")
    round_id = api('{ task(code: "sentiment") { currentRound { id } } }')["task"]["currentRound"]["id"]
    socket = Socket(stack.api_url, session)
    assert socket.acknowledged()
    socket.subscribe("subscription($r: ID!) { roundStats(roundId: $r) { number } }", {"r": round_id})
    assert socket.receive()["type"] == "next"
    api(REQUEST, {"w": "watcher"})
    token = token_in(mailbox.take("watcher@example.org"))
    assert api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]["username"] == "watcher"
    code, reason = socket.closed_with()
    assert code == CLOSE_CREDENTIALS and "log in again" in reason, (code, reason)


def test_a_reset_can_be_asked_by_verified_email_in_any_case(api, mailbox):
    verified_account(api, mailbox, "bymail", "bymail@example.org")
    api(REQUEST, {"w": "  ByMail@Example.org "})
    token = token_in(mailbox.take("bymail@example.org"))
    assert api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]["username"] == "bymail"


def test_unknown_accounts_and_unverified_addresses_get_the_same_answer_and_no_mail(api, mailbox):
    verified_account(api, mailbox, "known", "known@example.org")
    unverified = api.sign_up("unverified")
    api(SET_EMAIL, {"e": "unverified@example.org"}, token=unverified)
    mailbox.take("unverified@example.org")  # the verification link, never opened
    answers = {
        who: api(REQUEST, {"w": who})["requestPasswordReset"]
        for who in ("known", "nobody-at-all", "nobody@example.org", "unverified", "unverified@example.org")
    }
    assert len({str(answer) for answer in answers.values()}) == 1, answers
    wait_for_queued_jobs()
    assert mailbox.to("unverified@example.org") == [] and mailbox.to("nobody@example.org") == []
    assert len(mailbox.to("known@example.org")) == 1


def test_an_expired_reset_link_is_refused(api, mailbox):
    verified_account(api, mailbox, "late", "late@example.org")
    api(REQUEST, {"w": "late"})
    token = token_in(mailbox.take("late@example.org"))
    run_sql("UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'")
    refused = api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]
    assert refused["__typename"] == "InputError" and "expired" in refused["message"]
    assert _log_in(api, "late", "correct horse battery")["__typename"] == "AuthPayload"


def test_only_the_latest_link_works_and_resets_are_limited_per_account(api, mailbox):
    verified_account(api, mailbox, "eager", "eager@example.org")
    for _ in range(5):  # PASSWORD_RESETS_PER_HOUR (3): the rest are answered alike but not mailed
        assert api(REQUEST, {"w": "eager"})["requestPasswordReset"]["__typename"] == "PasswordResetRequested"
    wait_for_queued_jobs()
    messages = mailbox.to("eager@example.org")
    assert len(messages) == 3
    tokens = {token_in(message) for message in messages}
    issued = {
        r["selector"]: r["used_at"]
        for r in run_sql("SELECT selector, used_at FROM account_tokens WHERE purpose = 'reset_password'")
    }
    assert len(tokens) == 3 and sorted(v is None for v in issued.values()) == [False, False, True]
    live = next(token for token in tokens if issued[token.split(".")[0]] is None)
    for token in tokens - {live}:
        assert api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]["__typename"] == "InputError"
    assert api(RESET, {"t": live, "p": NEW_PASSWORD})["resetPassword"]["username"] == "eager"


def test_the_new_password_follows_the_sign_up_rules(api, mailbox):
    verified_account(api, mailbox, "rules", "rules@example.org")
    api(REQUEST, {"w": "rules"})
    token = token_in(mailbox.take("rules@example.org"))
    short = api(RESET, {"t": token, "p": "short"})["resetPassword"]
    assert short["__typename"] == "InputError" and short["fields"][0]["field"] == "newPassword"
    assert api(RESET, {"t": token, "p": NEW_PASSWORD})["resetPassword"]["username"] == "rules"  # still unused


def test_without_mail_resets_go_through_an_admin(stack, api, admin_token, tmp_path):
    process, origin = api_with(stack, tmp_path, SMTP_URL="", MAIL_FROM="", PASSWORD_RESETS_PER_HOUR_PER_ADDRESS="2")
    unmailed = GraphQLClient(origin)
    try:
        session = unmailed.sign_up("stranded")
        answer = unmailed(REQUEST, {"w": "stranded"})["requestPasswordReset"]
        assert answer["byAdmin"] is True and "admin" in answer["message"]
        assert unmailed(SET_EMAIL, {"e": "stranded@example.org"}, token=session)["setEmail"]["verificationSent"] is False
        refused = unmailed(ISSUE, {"u": "stranded"}, token=session)["adminIssuePasswordReset"]
        assert refused["__typename"] == "PermissionError"
        missing = unmailed(ISSUE, {"u": "no-such-user"}, token=admin_token)["adminIssuePasswordReset"]
        assert missing["__typename"] == "NotFoundError"
        issued = unmailed(ISSUE, {"u": "Stranded"}, token=admin_token)["adminIssuePasswordReset"]
        assert issued["__typename"] == "PasswordResetIssued" and issued["link"].endswith(
            f"/#/reset-password?token={issued['token']}"
        )
        done = unmailed(RESET, {"t": issued["token"], "p": NEW_PASSWORD})["resetPassword"]
        assert done["username"] == "stranded"
        assert _log_in(unmailed, "stranded", NEW_PASSWORD)["__typename"] == "AuthPayload"
        assert unmailed(RESET, {"t": issued["token"], "p": NEW_PASSWORD})["resetPassword"]["__typename"] == "InputError"
        # Requests are limited per client address (2 here: the first one above, then this one).
        assert unmailed(REQUEST, {"w": "someone"})["requestPasswordReset"]["__typename"] == "PasswordResetRequested"
        limited = unmailed(REQUEST, {"w": "someone"})["requestPasswordReset"]
        assert limited["__typename"] == "RateLimitedError" and "password reset requests" in limited["message"]
    finally:
        unmailed.http.close()
        process.terminate()
        process.wait(timeout=30)
