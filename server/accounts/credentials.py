"""Passwords, session tokens (JWT) and API tokens. Pure functions apart from the clock."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from server.accounts.records import TokenScope

API_TOKEN_SCOPES = tuple(TokenScope)  # read, annotate, models, admin
API_TOKEN_MARKER = "dbk"
_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def password_needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def issue_session_token(user_id: int, secret: str, ttl_seconds: int, now: float | None = None) -> str:
    issued = int(now if now is not None else time.time())
    payload = {"sub": str(user_id), "iat": issued, "exp": issued + ttl_seconds, "typ": "session"}
    return jwt.encode(payload, secret, algorithm="HS256")


def read_session_token(token: str, secret: str, now: float | None = None) -> int | None:
    """The user id of a valid, unexpired session token, else None."""
    session = read_session(token, secret, now)
    return session[0] if session is not None else None


def read_session(token: str, secret: str, now: float | None = None) -> tuple[int, float] | None:
    """(user id, expiry as a Unix time) of a valid, unexpired session token, else None."""
    known = _VERIFIED.get((token, secret))
    if known is not None:  # verified before: only its expiry can have changed
        return known if (now if now is not None else time.time()) < known[1] else None
    try:
        payload = jwt.decode(token, secret, algorithms=["HS256"], options={"require": ["exp", "sub"]})
    except jwt.PyJWTError:
        return None
    if payload.get("typ") != "session":
        return None
    try:
        user_id = int(payload["sub"])
        expires = float(payload["exp"])
    except (TypeError, ValueError):
        return None
    if len(_VERIFIED) >= 10_000:
        _VERIFIED.clear()
    _VERIFIED[(token, secret)] = (user_id, expires)
    return (user_id, expires) if (now if now is not None else time.time()) < expires else None


# Signature checks of recently seen session tokens (every authenticated request would repeat one).
_VERIFIED: dict[tuple[str, str], tuple[int, float]] = {}


@dataclass(frozen=True)
class NewApiToken:
    token: str  # shown to the user once, never stored
    prefix: str  # stored and shown, identifies the token
    token_hash: str


def new_api_token() -> NewApiToken:
    prefix = secrets.token_hex(6)
    token = f"{API_TOKEN_MARKER}_{prefix}_{secrets.token_urlsafe(32)}"
    return NewApiToken(token=token, prefix=prefix, token_hash=hash_api_token(token))


def hash_api_token(token: str) -> str:
    # API tokens carry 256 random bits, so a fast hash suffices (unlike passwords).
    return hashlib.sha256(token.encode()).hexdigest()


def api_token_prefix(token: str) -> str | None:
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != API_TOKEN_MARKER or not parts[1]:
        return None
    return parts[1]


def api_token_matches(token: str, token_hash: str) -> bool:
    return hmac.compare_digest(hash_api_token(token), token_hash)
