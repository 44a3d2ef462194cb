"""Outgoing mail: one plain-text message over SMTP, configured by SMTP_URL and MAIL_FROM (server/core/settings.py).

SMTP_URL forms: `smtp://[user:pass@]host[:port]` (plain, port 25), `smtp+starttls://…` (STARTTLS, port 587),
`smtps://…` (implicit TLS, port 465). The password is never logged: errors name the host and port only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

from server.core.settings import Settings

log = logging.getLogger(__name__)

_SCHEMES = {"smtp": (25, False, False), "smtp+starttls": (587, False, True), "smtps": (465, True, False)}


class MailError(Exception):
    """The message could not be handed to the SMTP server (the text names no credentials)."""


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool

    def __repr__(self) -> str:  # never shows the password
        return f"SmtpTarget(host={self.host!r}, port={self.port}, tls={self.use_tls}, starttls={self.start_tls})"


def parse_smtp_url(url: str) -> SmtpTarget:
    """`smtp://user:pass@host:port` → where and how to connect; ValueError (without the password) when malformed."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        raise ValueError("SMTP_URL must start with smtp://, smtp+starttls:// or smtps://")
    default_port, use_tls, start_tls = _SCHEMES[scheme]
    try:
        port = parts.port or default_port
    except ValueError as exc:
        raise ValueError("SMTP_URL has an invalid port") from exc
    if not parts.hostname:
        raise ValueError("SMTP_URL names no host")
    username = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return SmtpTarget(parts.hostname, port, username, password, use_tls, start_tls)


def mail_configured(settings: Settings) -> bool:
    """True when SMTP_URL and MAIL_FROM are set and SMTP_URL parses: the platform may send mail."""
    if not settings.smtp_url or not settings.mail_from:
        return False
    try:
        parse_smtp_url(settings.smtp_url)
    except ValueError:
        return False
    return True


async def send_mail(settings: Settings, to: str, subject: str, text: str) -> None:
    """Send one plain-text message to `to`; raises MailError when mail is not configured or the server refuses."""
    if not mail_configured(settings):
        raise MailError("mail is not configured (SMTP_URL, MAIL_FROM)")
    target = parse_smtp_url(settings.smtp_url)
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=settings.mail_from.rpartition("@")[2] or None)
    message.set_content(text)
    try:
        await aiosmtplib.send(
            message,
            hostname=target.host,
            port=target.port,
            username=target.username,
            password=target.password,
            use_tls=target.use_tls,
            start_tls=target.start_tls,
            timeout=settings.smtp_timeout_s,
        )
    except (aiosmtplib.SMTPException, OSError) as exc:
        # The exception text may echo the server's reply but never our password; log the type, not the URL.
        log.warning("mail to %s:%d failed: %s", target.host, target.port, type(exc).__name__)
        raise MailError(f"the SMTP server at {target.host}:{target.port} did not accept the message") from exc
