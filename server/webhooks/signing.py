"""Signing webhook deliveries and checking a signature (pure: no I/O), the way a receiver should.

A delivery carries `X-Dynabench-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`
(Stripe's scheme). The timestamp is signed with the body, so a captured request replayed later fails the
tolerance check (`DEFAULT_TOLERANCE_S`, 5 minutes), and the same body re-sent on a retry carries a fresh one.
After a secret rotation, a second `v1=` entry signs with the previous secret until its grace period ends: any one
matching is enough, so a receiver may switch secrets at its own pace.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Dynabench-Signature"
EVENT_HEADER = "X-Dynabench-Event"
DELIVERY_HEADER = "X-Dynabench-Delivery"
DEFAULT_TOLERANCE_S = 300
SECRET_PREFIX = "whsec_"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """Hex HMAC-SHA256 of `<timestamp>.<body>` under the secret (the whole secret string, prefix included)."""
    return hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes, *also: str) -> str:
    """`t=…,v1=…`, with one more `v1=` per secret in `also` (a rotated-out secret still in its grace period)."""
    return f"t={timestamp}," + ",".join(f"v1={signature(s, timestamp, body)}" for s in (secret, *also))


def verify_signature(secret: str, header: str | None, body: bytes, now: float, tolerance: float = DEFAULT_TOLERANCE_S) -> bool:
    """True when `header` signs exactly `body` with `secret` and its timestamp is within `tolerance` seconds of
    `now` (either side: clocks drift). Malformed headers are simply not valid."""
    if not header or len(header) > 4096:
        return False
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            return False
        if key == "t":
            if timestamp is not None or not value.isascii() or not value.isdigit() or len(value) > 12:
                return False
            timestamp = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not candidates or abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate.encode("ascii", "replace").decode()) for candidate in candidates)


def new_salt() -> str:
    """The per-hook random value from which its secret is derived (stored; the secret itself is not)."""
    return secrets.token_hex(32)


def derive_secret(key: bytes, salt: str) -> str:
    """A hook's signing secret: HMAC(server key, salt). The database holds only the salt, so a copy of the tables
    without the server's key (WEBHOOK_SECRET_KEY, or one derived from JWT_SECRET) cannot sign for any hook."""
    digest = hmac.new(key, b"dynabench webhook secret\x1f" + salt.encode(), hashlib.sha256).hexdigest()
    return SECRET_PREFIX + digest
