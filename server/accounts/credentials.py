"""Passwords, session tokens (JWT), API tokens and single-use account tokens. Pure functions apart from the clock."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import NamedTuple

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


def issue_session_token(user_id: int, secret: str, ttl_seconds: int, now: float | None = None, epoch: int = 0) -> str:
    """A session JWT; `epoch` is the account's session epoch (users.session_epoch): a password reset raises it,
    and every session of an earlier epoch is refused from then on."""
    issued = int(now if now is not None else time.time())
    payload = {"sub": str(user_id), "iat": issued, "exp": issued + ttl_seconds, "typ": "session", "ep": epoch}
    return jwt.encode(payload, secret, algorithm="HS256")


def read_session_token(token: str, secret: str, now: float | None = None) -> int | None:
    """The user id of a valid, unexpired session token, else None."""
    session = read_session(token, secret, now)
    return session[0] if session is not None else None


class SessionClaims(NamedTuple):
    user_id: int
    expires: float  # a Unix time
    epoch: int  # the account's session epoch when it was issued (0 for sessions issued before epochs existed)


def read_session(token: str, secret: str, now: float | None = None) -> SessionClaims | None:
    """(user id, expiry as a Unix time, session epoch) of a valid, unexpired session token, else None."""
    known = _VERIFIED.get((token, secret))
    if known is not None:  # verified before: only its expiry can have changed
        return known if (now if now is not None else time.time()) < known.expires else None
    try:
        payload = jwt.decode(token, secret, algorithms=["HS256"], options={"require": ["exp", "sub"]})
    except jwt.PyJWTError:
        return None
    if payload.get("typ") != "session":
        return None
    try:
        claims = SessionClaims(int(payload["sub"]), float(payload["exp"]), int(payload.get("ep", 0)))
    except (TypeError, ValueError):
        return None
    if len(_VERIFIED) >= 10_000:
        _VERIFIED.clear()
    _VERIFIED[(token, secret)] = claims
    return claims if (now if now is not None else time.time()) < claims.expires else None


# Signature checks of recently seen session tokens (every authenticated request would repeat one).
_VERIFIED: dict[tuple[str, str], SessionClaims] = {}


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


@dataclass(frozen=True)
class NewAccountToken:
    token: str  # mailed or handed over once, never stored
    selector: str  # stored: finds the row
    token_hash: str


def new_account_token() -> NewAccountToken:
    """A single-use token for email verification or a password reset: `selector.secret` (256 random bits)."""
    selector = secrets.token_hex(8)
    token = f"{selector}.{secrets.token_urlsafe(32)}"
    return NewAccountToken(token=token, selector=selector, token_hash=hash_api_token(token))


def account_token_selector(token: str) -> str | None:
    selector, dot, rest = token.strip().partition(".")
    if not dot or len(selector) != 16 or not rest or len(token) > 128:
        return None
    if any(c not in "0123456789abcdef" for c in selector):
        return None
    return selector


def account_token_matches(token: str, token_hash: str) -> bool:
    """Constant time in the token's content (the stored value is a hash of the whole token)."""
    return hmac.compare_digest(hash_api_token(token.strip()), token_hash)
