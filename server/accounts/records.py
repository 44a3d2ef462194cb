"""Rows of the accounts domain as typed records, and the scopes an API token can carry."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TypedDict


class TokenScope(StrEnum):
    """What an API token may do (a session has every scope; `admin` implies the others)."""

    READ = "read"
    ANNOTATE = "annotate"
    MODELS = "models"
    ADMIN = "admin"


class AccountTokenPurpose(StrEnum):
    """What a single-use account token is for (account_tokens.purpose)."""

    VERIFY_EMAIL = "verify_email"
    RESET_PASSWORD = "reset_password"


class UserRow(TypedDict):
    """A user as it leaves the accounts domain: never with its password hash."""

    id: int
    username: str
    email: str | None
    email_verified_at: datetime | None
    is_admin: bool
    session_epoch: int
    created_at: datetime
    disabled_at: datetime | None  # disabled by an admin: no log-in, no session, no API token
    disabled_reason: str


class UserWithHash(UserRow):
    password_hash: str


class ApiTokenRow(TypedDict, total=False):
    """An API token without its hash (`user` is absent from a revocation's answer)."""

    id: int
    user: int
    name: str
    prefix: str
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class LiveApiToken(TypedDict):
    """A live token looked up by its prefix to authenticate a request (with its hash, to compare)."""

    id: int
    user: int
    token_hash: str
    scopes: list[str]


class ViewerFacts(TypedDict):
    """What ownership and admin rules need about a user: read on every authenticated request."""

    id: int
    username: str
    is_admin: bool
    session_epoch: int
    disabled: bool
    owned: list[int] | None


class AccountTokenRow(TypedDict):
    """A single-use account token found by its selector (with its hash, to compare)."""

    id: int
    user: int
    purpose: str
    token_hash: str
    email: str | None
    expires_at: datetime
    used_at: datetime | None


class ResetRecipient(TypedDict):
    """Where a password reset may be mailed: an account with a verified email."""

    id: int
    username: str
    email: str
