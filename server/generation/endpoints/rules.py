"""What an admin may register as an LLM endpoint: each setting's rule and its cleaned value. Pure, no I/O.

Field names in problems are the GraphQL input's (`baseUrl`, `apiKey`, …). The base URL carries no credentials, query
or fragment, so it is never a secret: the key goes in `apiKey`, which is sealed at rest (crypto.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from server.core.errors import FieldProblem, invalid
from server.core.i18n import Text, tr

NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
MAX_URL = 500
MAX_MODEL = 200
MAX_KEY = 4096
KEY_CHARACTERS = re.compile(r"^[\x21-\x7e]+$")  # printable ASCII without spaces: a header value, never a line break
MAX_TIMEOUT_S = 600.0
MAX_CONCURRENCY = 1000
MAX_TOKENS_PER_DAY = 2_000_000_000  # a GraphQL Int
MAX_PRICE = Decimal("999999")

# The stored column -> the GraphQL input's field name.
FIELDS = {
    "name": "name",
    "base_url": "baseUrl",
    "model": "model",
    "api_key": "apiKey",
    "timeout_s": "timeoutS",
    "max_concurrency": "maxConcurrency",
    "tokens_per_user_per_day": "tokensPerUserPerDay",
    "tokens_per_task_per_day": "tokensPerTaskPerDay",
    "price_per_1k_prompt_tokens": "pricePer1kPromptTokens",
    "price_per_1k_completion_tokens": "pricePer1kCompletionTokens",
    "enabled": "enabled",
}
DEFAULTS: dict[str, Any] = {
    "api_key": "",
    "timeout_s": 30.0,
    "max_concurrency": 4,
    "tokens_per_user_per_day": 0,
    "tokens_per_task_per_day": 0,
    "price_per_1k_prompt_tokens": Decimal(0),
    "price_per_1k_completion_tokens": Decimal(0),
    "enabled": True,
}


class Refused(ValueError):
    """A value a rule refuses; the message says what is allowed."""


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Refused(tr("must be text"))
    if "\x00" in value or any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise Refused(tr("contains control characters"))
    return value.strip()


def clean_name(value: Any) -> str:
    name = _text(value)
    if not NAME.match(name):
        raise Refused(tr("1–64 characters: lowercase letters, digits, - and _, starting with a letter"))
    return name


def clean_base_url(value: Any) -> str:
    url = _text(value).rstrip("/")
    if not url or len(url) > MAX_URL:
        raise Refused(tr("1–{n} characters", n=MAX_URL))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(tr("is not a valid URL")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(tr("must be an http:// or https:// address with a host, such as https://llm.example.org/v1"))
    if parts.username is not None or parts.password is not None:
        raise Refused(tr("must not hold a user or password: give the key as the API key"))
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise Refused(tr("must not hold a query or a fragment"))
    if " " in url or (port is not None and port == 0):
        raise Refused(tr("is not a valid URL"))
    return url


def clean_model(value: Any) -> str:
    model = _text(value)
    if not 1 <= len(model) <= MAX_MODEL:
        raise Refused(tr("1–{n} characters", n=MAX_MODEL))
    return model


def clean_api_key(value: Any) -> str:
    """The key as given (no stripping inside); empty: no key."""
    key = _text(value)
    if key and (len(key) > MAX_KEY or not KEY_CHARACTERS.match(key)):
        raise Refused(tr("at most {n} printable ASCII characters without spaces", n=MAX_KEY))
    return key


def clean_timeout(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused(tr("must be a number"))
    if not 1 <= value <= MAX_TIMEOUT_S:
        raise Refused(tr("between 1 and {max} seconds", max=int(MAX_TIMEOUT_S)))
    return float(value)


def clean_concurrency(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CONCURRENCY:
        raise Refused(tr("a whole number from 1 to {max}", max=MAX_CONCURRENCY))
    return value


def clean_budget(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOKENS_PER_DAY:
        raise Refused(tr("a whole number of tokens from 0 (no limit) to {max}", max=MAX_TOKENS_PER_DAY))
    return value


def clean_price(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal) or not math.isfinite(value):
        raise Refused(tr("must be a number"))
    price = Decimal(str(value)).quantize(Decimal("0.000001"))
    if not 0 <= price <= MAX_PRICE:
        raise Refused(tr("from 0 to {max}", max=int(MAX_PRICE)))
    return price


def clean_enabled(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Refused(tr("must be true or false"))
    return value


RULES: dict[str, Callable[[Any], Any]] = {
    "name": clean_name,
    "base_url": clean_base_url,
    "model": clean_model,
    "api_key": clean_api_key,
    "timeout_s": clean_timeout,
    "max_concurrency": clean_concurrency,
    "tokens_per_user_per_day": clean_budget,
    "tokens_per_task_per_day": clean_budget,
    "price_per_1k_prompt_tokens": clean_price,
    "price_per_1k_completion_tokens": clean_price,
    "enabled": clean_enabled,
}
REQUIRED = ("name", "base_url", "model")


def cleaned(values: Mapping[str, Any], *, new: bool) -> dict[str, Any]:
    """The values with each rule applied (a new endpoint gets the defaults of what is not given); an InputError
    naming every refused field otherwise. Unknown keys are a programming error."""
    unknown = set(values) - set(RULES)
    assert not unknown, unknown
    problems: list[FieldProblem] = []
    out: dict[str, Any] = {**DEFAULTS} if new else {}
    for column in REQUIRED if new else ():
        if values.get(column) is None:
            problems.append(FieldProblem(FIELDS[column], tr("is required")))
    for column, value in values.items():
        if value is None:
            continue
        try:
            out[column] = RULES[column](value)
        except Refused as refused:
            message = refused.args[0]
            problems.append(FieldProblem(FIELDS[column], message if isinstance(message, Text) else str(message)))
    if problems:
        raise invalid(tr("The LLM endpoint's settings cannot be used."), *problems)
    return out
