"""Authorization matrix, account recovery (issue #18): emails, their verification, password resets and an admin's
reset link (see matrix.py for the outcomes and world.py for the principals). Allowed cells that queue a mail job
wait for the worker, so that a job's rows never land inside a refused cell's before/after comparison."""

import pytest

from server.accounts import credentials
from tests.api.recovery_helpers import wait_for_queued_jobs
from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.conftest import run_sql

ERR = "... on Error { code message }"


def _email_of(world, principal):
    return run_sql("SELECT email, email_verified_at FROM users WHERE id = $1", world.user_pk[principal])[0]


def _account(world, prefix: str) -> tuple[int, str]:
    name = world.unique(prefix)
    user = run_sql("INSERT INTO users (username, password_hash) VALUES ($1, '!') RETURNING id", name)[0]["id"]
    return user, name


def _token(user: int, purpose: str, email: str | None) -> str:
    new = credentials.new_account_token()
    run_sql(
        'INSERT INTO account_tokens ("user", purpose, selector, token_hash, email, expires_at) '
        "VALUES ($1, $2, $3, $4, $5, now() + interval '1 hour')",
        user,
        purpose,
        new.selector,
        new.token_hash,
        email,
    )
    return new.token


def _verification(world, principal):
    user, name = _account(world, "mx-verify-")
    email = f"{name}@example.org"
    run_sql("UPDATE users SET email = $2 WHERE id = $1", user, email)
    return {"t": _token(user, "verify_email", email), "_user": user, "_email": email}


def _reset(world, principal):
    user, name = _account(world, "mx-reset-")
    return {"t": _token(user, "reset_password", None), "p": "a matrix reset password", "_name": name}


def _stranded(world, principal):
    user, name = _account(world, "mx-stranded-")
    return {"u": name, "_user": user}


def _tokens_of(world, variables):
    return run_sql('SELECT count(*) AS n FROM account_tokens WHERE "user" = $1', variables["_user"])


def _drain(world, principal, variables):
    wait_for_queued_jobs()


OPS = [
    Op(
        "setEmail",
        "Mutation.setEmail",
        "mutation($e: String) { setEmail(input: {email: $e}) { __typename "
        f"... on EmailSet {{ verificationSent user {{ email emailVerified }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 403 403 ok",
        ok_type="EmailSet",
        prepare=lambda w, p: {"e": f"{w.unique('mx-mail-')}@example.org"},
        check=lambda w, p, v, a: same(
            (v["user"], v["verificationSent"], _email_of(w, w.self_of(p))["email"]),
            ({"email": a["e"], "emailVerified": False}, True, a["e"]),
        ),
        after=_drain,
    ),
    Op(
        "verifyEmail",
        "Mutation.verifyEmail",
        f"mutation($t: String!) {{ verifyEmail(input: {{token: $t}}) {{ __typename ... on EmailVerified {{ email }} {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",
        ok_type="EmailVerified",
        prepare=_verification,
        check=lambda w, p, v, a: holds(
            v["email"] == a["_email"]
            and run_sql("SELECT email_verified_at FROM users WHERE id = $1", a["_user"])[0]["email_verified_at"],
            v,
        ),
    ),
    Op(
        "requestPasswordReset",
        "Mutation.requestPasswordReset",
        "mutation($w: String!) { requestPasswordReset(input: {usernameOrEmail: $w}) { __typename "
        f"... on PasswordResetRequested {{ byAdmin }} {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",
        ok_type="PasswordResetRequested",
        prepare=lambda w, p: {"w": "mx-nobody"},
        check=lambda w, p, v, _: same(v, {"__typename": "PasswordResetRequested", "byAdmin": False}),
        after=_drain,
    ),
    Op(
        "resetPassword",
        "Mutation.resetPassword",
        "mutation($t: String!, $p: String!) { resetPassword(input: {token: $t, newPassword: $p}) { __typename "
        f"... on PasswordResetDone {{ username }} {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",
        ok_type="PasswordResetDone",
        prepare=_reset,
        check=lambda w, p, v, a: same(v["username"], a["_name"]),
    ),
    Op(
        "adminIssuePasswordReset",
        "Mutation.adminIssuePasswordReset",
        "mutation($u: String!) { adminIssuePasswordReset(input: {username: $u}) { __typename "
        f"... on PasswordResetIssued {{ token link }} {ERR} }} }}",
        "401 403 403 403 ok 403 403 403 ok",
        ok_type="PasswordResetIssued",
        prepare=_stranded,
        watch=_tokens_of,
        check=lambda w, p, v, a: holds(v["link"].endswith(v["token"]) and _tokens_of(w, a)[0]["n"] == 1, v),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
