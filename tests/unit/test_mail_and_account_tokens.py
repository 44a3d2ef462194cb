"""server/core/mail.py against a real SMTP server (aiosmtpd on 127.0.0.1, with and without log-in), its URL forms,
and the pure parts of account recovery: single-use account tokens and the session epoch claim."""

import asyncio
import dataclasses

import pytest
from aiosmtpd.smtp import AuthResult

from server.accounts import credentials
from server.core.mail import MailError, mail_configured, parse_smtp_url, send_mail
from server.core.settings import Settings
from server.runtime import free_port
from tests.api.smtp_helpers import SmtpServer, body

SECRET = "a-secret-that-is-long-enough-0123456789"
BASE = Settings(jwt_secret=SECRET, mail_from="platform@example.org")


def test_smtp_url_forms():
    plain = parse_smtp_url("smtp://127.0.0.1:2525")
    assert (plain.host, plain.port, plain.use_tls, plain.start_tls, plain.username) == ("127.0.0.1", 2525, False, False, None)
    starttls = parse_smtp_url("smtp+starttls://mailer:p%40ss@mail.example.org")
    assert (starttls.port, starttls.start_tls, starttls.username, starttls.password) == (587, True, "mailer", "p@ss")
    implicit = parse_smtp_url("smtps://mail.example.org")
    assert (implicit.port, implicit.use_tls) == (465, True)
    assert "p@ss" not in repr(starttls) and "p%40ss" not in repr(starttls)
    for bad in ("http://mail.example.org", "smtp://", "smtp://host:notaport"):
        with pytest.raises(ValueError):
            parse_smtp_url(bad)


def test_mail_is_configured_only_with_a_valid_url_and_a_sender():
    assert not mail_configured(BASE)
    assert mail_configured(dataclasses.replace(BASE, smtp_url="smtp://127.0.0.1:25"))
    assert not mail_configured(dataclasses.replace(BASE, smtp_url="smtp://127.0.0.1:25", mail_from=""))
    assert not mail_configured(dataclasses.replace(BASE, smtp_url="ftp://127.0.0.1"))


def test_send_mail_delivers_a_plain_text_message():
    server = SmtpServer().start()
    try:
        settings = dataclasses.replace(BASE, smtp_url=server.url)
        asyncio.run(send_mail(settings, "reader@example.org", "Hello", "First line.\nSecond line: ü.\n"))
        message = server.take("reader@example.org")
        assert (message["From"], message["To"], message["Subject"]) == ("platform@example.org", "reader@example.org", "Hello")
        assert body(message) == "First line.\nSecond line: ü.\n"
    finally:
        server.stop()


def test_send_mail_logs_in_with_the_url_credentials():
    seen = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        seen.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == b"right pass")

    server = SmtpServer(authenticator=authenticator, auth_require_tls=False).start()
    try:
        good = dataclasses.replace(BASE, smtp_url=f"smtp://mailer:right%20pass@127.0.0.1:{server.port}")
        asyncio.run(send_mail(good, "reader@example.org", "Hi", "Text."))
        assert server.take("reader@example.org")["Subject"] == "Hi"
        wrong = dataclasses.replace(BASE, smtp_url=f"smtp://mailer:wrong-secret@127.0.0.1:{server.port}")
        with pytest.raises(MailError) as refused:
            asyncio.run(send_mail(wrong, "reader@example.org", "Hi", "Text."))
        assert "wrong-secret" not in str(refused.value) and f"127.0.0.1:{server.port}" in str(refused.value)
        assert seen[0] == (b"mailer", b"right pass")
    finally:
        server.stop()


def test_an_unreachable_server_is_a_mail_error_without_the_password():
    settings = dataclasses.replace(BASE, smtp_url=f"smtp://u:hunter22@127.0.0.1:{free_port()}", smtp_timeout_s=5)
    with pytest.raises(MailError) as failed:
        asyncio.run(send_mail(settings, "reader@example.org", "Hi", "Text."))
    assert "hunter22" not in str(failed.value)
    with pytest.raises(MailError):
        asyncio.run(send_mail(BASE, "reader@example.org", "Hi", "Text."))  # not configured


def test_account_tokens_are_random_hashed_and_matched_by_selector():
    first, second = credentials.new_account_token(), credentials.new_account_token()
    assert first.token != second.token and first.token_hash != second.token_hash
    assert credentials.account_token_selector(first.token) == first.selector and len(first.selector) == 16
    assert first.token not in first.token_hash
    assert credentials.account_token_matches(first.token, first.token_hash)
    assert not credentials.account_token_matches(second.token, first.token_hash)
    assert not credentials.account_token_matches(first.token[:-1] + "x", first.token_hash)
    for junk in ("", "no-dot", "ABCDEF0123456789.x", f"{first.selector}.", "short.x", first.selector + "." + "x" * 200):
        assert credentials.account_token_selector(junk) is None, junk


def test_a_session_carries_its_epoch():
    token = credentials.issue_session_token(7, SECRET, 60, epoch=3)
    claims = credentials.read_session(token, SECRET)
    assert (claims.user_id, claims.epoch) == (7, 3)
    assert credentials.read_session(credentials.issue_session_token(7, SECRET, 60), SECRET).epoch == 0
