"""GraphQL documents and steps shared by the account email and password reset tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx

from server.runtime import free_port
from tests.api.smtp_helpers import SmtpServer, token_in

ERR = "... on Error { code message } ... on InputError { fields { field message } }"
ME = "{ me { username email emailVerified } }"
SET_EMAIL = (
    "mutation($e: String) { setEmail(input: {email: $e}) { __typename "
    f"... on EmailSet {{ verificationSent user {{ email emailVerified }} }} {ERR} }} }}"
)
VERIFY = f"mutation($t: String!) {{ verifyEmail(input: {{token: $t}}) {{ __typename ... on EmailVerified {{ email }} {ERR} }} }}"
REQUEST = (
    "mutation($w: String!) { requestPasswordReset(input: {usernameOrEmail: $w}) { __typename "
    f"... on PasswordResetRequested {{ message byAdmin }} {ERR} }} }}"
)
RESET = (
    "mutation($t: String!, $p: String!) { resetPassword(input: {token: $t, newPassword: $p}) { __typename "
    f"... on PasswordResetDone {{ username }} {ERR} }} }}"
)
ISSUE = (
    "mutation($u: String!) { adminIssuePasswordReset(input: {username: $u}) { __typename "
    f"... on PasswordResetIssued {{ link token expiresAt }} {ERR} }} }}"
)
LOG_IN = (
    "mutation($u: String!, $p: String!) { logIn(input: {username: $u, password: $p}) { __typename "
    f"... on AuthPayload {{ token }} {ERR} }} }}"
)


def verified_account(api, mailbox: SmtpServer, username: str, email: str) -> str:
    """Sign up, set the email and open the mailed link: the session token."""
    session = api.sign_up(username)
    assert api(SET_EMAIL, {"e": email}, token=session)["setEmail"]["verificationSent"] is True
    token = token_in(mailbox.take(email))
    assert api(VERIFY, {"t": token})["verifyEmail"] == {"__typename": "EmailVerified", "email": email.lower()}
    return session


def wait_for_queued_jobs(timeout_s: float = 60.0) -> None:
    """Until the worker has taken and finished every queued job (the timeout guards against hanging)."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            queued = client.zcount("arq:queue", "-inf", int(time.time() * 1000))  # due now (not deferred ones)
            running = [k for k in client.scan_iter(match="arq:in-progress:*") if not k.startswith(b"arq:in-progress:cron:")]
            if not queued and not running:
                return
            assert time.monotonic() < deadline, f"jobs still queued ({queued}) or running ({running})"
            time.sleep(0.05)
    finally:
        client.close()


def api_with(stack, tmp_path, **env):
    """A second API process on the session's database and Redis, with these settings: (process, origin)."""
    port = free_port()
    log = (tmp_path / "api.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**os.environ, **stack.env, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    origin = f"http://127.0.0.1:{port}"
    for _ in range(600):  # a guard against hanging, not a timing assertion
        assert process.poll() is None, (tmp_path / "api.log").read_text()
        try:
            if httpx.get(origin + "/health", timeout=5).status_code == 200:
                return process, origin
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise AssertionError((tmp_path / "api.log").read_text())
