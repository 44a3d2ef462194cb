"""A real SMTP server for the tests (aiosmtpd on 127.0.0.1): the session stack's API and worker send to it
(tests/conftest.py sets SMTP_URL and MAIL_FROM from `start_session_smtp()` before the stack starts)."""

from __future__ import annotations

import re
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from server.runtime import free_port

MAIL_FROM = "dynabench@example.org"
TOKEN = re.compile(r"token=([0-9a-f]{16}\.[A-Za-z0-9_-]+)")


class SmtpServer:
    """Every message it receives, by recipient; `take` waits for the next one to an address."""

    def __init__(self, **options) -> None:
        """`options` go to aiosmtpd's SMTP server (e.g. an `authenticator`)."""
        self.port = free_port()
        self._messages: list[tuple[list[str], EmailMessage]] = []
        self._arrived = threading.Condition()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, **options)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> SmtpServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's handler hook
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self._arrived:
            self._messages.append(([r.lower() for r in envelope.rcpt_tos], message))
            self._arrived.notify_all()
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages received for this address so far (oldest first)."""
        with self._arrived:
            return [message for recipients, message in self._messages if address.lower() in recipients]

    def take(self, address: str, timeout_s: float = 60.0) -> EmailMessage:
        """Wait for the next message to this address and remove it (the timeout guards against hanging)."""
        deadline = time.monotonic() + timeout_s
        with self._arrived:
            while True:
                for i, (recipients, message) in enumerate(self._messages):
                    if address.lower() in recipients:
                        del self._messages[i]
                        return message
                left = deadline - time.monotonic()
                assert left > 0, f"no message to {address} arrived"
                self._arrived.wait(left)

    def clear(self) -> None:
        with self._arrived:
            self._messages.clear()


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, message
    return part.get_content().replace("\r\n", "\n")


def token_in(message: EmailMessage) -> str:
    found = TOKEN.search(body(message))
    assert found, body(message)
    return found.group(1)


_SESSION: list[SmtpServer] = []


def start_session_smtp() -> dict[str, str]:
    """Start the session's SMTP server (once); the environment that points the stack at it."""
    if not _SESSION:
        _SESSION.append(SmtpServer().start())
    return {"SMTP_URL": _SESSION[0].url, "MAIL_FROM": MAIL_FROM}


def session_mailbox() -> SmtpServer:
    assert _SESSION, "the session stack was not started with an SMTP server (tests/conftest.py)"
    return _SESSION[0]
