"""The account mails' words (email verification, password reset), translatable: the job says them in the language
of the request that asked for them (server/core/i18n.py). Pure."""

from __future__ import annotations

from typing import NamedTuple

from server.core.i18n import Text, tr, trn


class Mail(NamedTuple):
    subject: Text
    body: Text


def verification_mail(username: str, link: str, code: str, hours: int) -> Mail:
    return Mail(
        tr("Confirm your email address for Dynabench"),
        trn(
            "Hello {username},\n\nopen this link to confirm that this is your email address:\n\n{link}\n\n"
            "or enter this code on the page: {code}\n\n"
            "It works once, within {count} hour. If you did not ask for this, ignore this message.\n",
            "Hello {username},\n\nopen this link to confirm that this is your email address:\n\n{link}\n\n"
            "or enter this code on the page: {code}\n\n"
            "It works once, within {count} hours. If you did not ask for this, ignore this message.\n",
            count=hours,
            username=username,
            link=link,
            code=code,
        ),
    )


def reset_mail(username: str, link: str, code: str, minutes: int) -> Mail:
    return Mail(
        tr("Reset your Dynabench password"),
        trn(
            "Hello {username},\n\nsomeone (hopefully you) asked to reset the password of this account. "
            "Open this link to choose a new one:\n\n{link}\n\nor enter this code on the page: {code}\n\n"
            "It works once, within {count} minute, and signs out every session of the account. "
            "If you did not ask for this, ignore this message: your password stays.\n",
            "Hello {username},\n\nsomeone (hopefully you) asked to reset the password of this account. "
            "Open this link to choose a new one:\n\n{link}\n\nor enter this code on the page: {code}\n\n"
            "It works once, within {count} minutes, and signs out every session of the account. "
            "If you did not ask for this, ignore this message: your password stays.\n",
            count=minutes,
            username=username,
            link=link,
            code=code,
        ),
    )
