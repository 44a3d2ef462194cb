"""LLM endpoints' API keys at rest: AES-256-GCM under a key derived (HKDF-SHA256) from ENDPOINT_KEY_SECRET, or, when
that is not set, from JWT_SECRET (as webhook secrets and crowd ids are; `dynabench up` sets JWT_SECRET; compose sets
ENDPOINT_KEY_SECRET for the API and the workers, which have no JWT_SECRET). Each sealed key is bound to its endpoint's
name (associated data), so a sealed value copied to another row does not open. Pure: no I/O."""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from server.core.settings import Settings

VERSION = "v1"
MIN_SECRET = 32


class KeySecretMissing(RuntimeError):
    """No secret to seal or open keys with: the process was started without ENDPOINT_KEY_SECRET (nor JWT_SECRET)."""


class KeyUnreadable(ValueError):
    """A sealed key that does not open: the secret changed since it was stored, or the value was altered."""


def _secret(settings: Settings) -> bytes:
    if len(settings.endpoint_key_secret) >= MIN_SECRET:
        return settings.endpoint_key_secret.encode()
    if settings.endpoint_key_secret:
        raise KeySecretMissing(f"ENDPOINT_KEY_SECRET must be at least {MIN_SECRET} characters long.")
    if len(settings.jwt_secret) >= MIN_SECRET:
        return settings.jwt_secret.encode()
    raise KeySecretMissing(
        "ENDPOINT_KEY_SECRET is not set (nor JWT_SECRET): LLM endpoints' API keys cannot be stored or used. Set "
        f"ENDPOINT_KEY_SECRET to at least {MIN_SECRET} random characters, the same for the API and the workers."
    )


def _cipher(settings: Settings) -> AESGCM:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"dynabench llm endpoint api keys v1")
    return AESGCM(hkdf.derive(_secret(settings)))


def seal(settings: Settings, endpoint_name: str, api_key: str) -> str:
    """The stored form of `api_key` (empty for no key)."""
    if not api_key:
        return ""
    nonce = os.urandom(12)
    sealed = _cipher(settings).encrypt(nonce, api_key.encode(), endpoint_name.encode())
    return f"{VERSION}:" + base64.urlsafe_b64encode(nonce + sealed).decode()


def open_sealed(settings: Settings, endpoint_name: str, sealed: str) -> str:
    """The key a `seal` stored ("" for none)."""
    if not sealed:
        return ""
    version, _, body = sealed.partition(":")
    if version != VERSION:
        raise KeyUnreadable("unknown sealed-key format")
    try:
        raw = base64.urlsafe_b64decode(body.encode())
        return _cipher(settings).decrypt(raw[:12], raw[12:], endpoint_name.encode()).decode()
    except (InvalidTag, ValueError):
        raise KeyUnreadable("the sealed key does not open with this secret") from None
