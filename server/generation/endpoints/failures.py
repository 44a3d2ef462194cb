"""What the author is told when an LLM endpoint does not answer: every openai / HTTP error mapped to a readable
GenerationFailed (or GenerationTimedOut) that names the endpoint by its name, never by its address, and never holds
its key (a server or proxy may echo headers in an error body: what it says is scrubbed before it is quoted)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx

from server.core.i18n import tr
from server.generation.streaming import GenerationFailed, GenerationTimedOut
from server.observability.logs import redact

if TYPE_CHECKING:
    import openai


def transport_errors() -> tuple[type[BaseException], ...]:
    try:  # openai >= 2 talks HTTP through httpx2 (its fork of httpx); older versions through httpx
        import httpx2

        return (httpx.HTTPError, httpx2.HTTPError, OSError)
    except ImportError:  # pragma: no cover — depends on the installed openai
        return (httpx.HTTPError, OSError)


MAX_DETAIL = 200
_SPACES = re.compile(r"\s+")


class EndpointUnavailable(GenerationFailed):
    """The endpoint is not registered, disabled, or its key cannot be read."""


class EndpointBusy(GenerationFailed):
    """Every concurrency slot of the endpoint stayed taken while the caller could wait."""


def scrub(text: str, secrets: Iterable[str], name: str) -> str:
    """`text` without any of `secrets` (the key, the base URL, its host: replaced by the endpoint's name or ***),
    credentials in any form the log redaction knows, line breaks, and past MAX_DETAIL characters."""
    for secret in sorted((s for s in secrets if s and len(s) >= 4), key=len, reverse=True):
        text = text.replace(secret, "***")
    text = _SPACES.sub(" ", redact(text)).strip()
    return text[:MAX_DETAIL] + ("…" if len(text) > MAX_DETAIL else "")


def _detail(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return str(message)
    return str(getattr(error, "message", "") or "")


def secrets_of(api_key: str, base_url: str) -> list[str]:
    """What a quoted error body must not show: the key, the base URL, its host and port."""
    parts = urlsplit(base_url)
    return [api_key, base_url, parts.netloc, parts.hostname or ""]


def failure(error: BaseException, name: str, secrets: Iterable[str], *, midway: bool) -> GenerationFailed:
    """The readable failure for `error`, raised while calling (or, `midway`, while streaming from) endpoint `name`;
    `secrets` (`secrets_of`) are scrubbed from anything the server said."""
    import openai  # here, not at import: it takes a third of a second, and most processes never call an endpoint

    secrets = list(secrets)
    kind = type(error).__name__
    transport = transport_errors()
    if isinstance(error, openai.APITimeoutError | TimeoutError):
        return GenerationTimedOut(tr("The model '{name}' did not answer in time.", name=name))
    if isinstance(error, openai.AuthenticationError | openai.PermissionDeniedError):
        return GenerationFailed(
            tr("The model '{name}' refused the platform's key: an admin checks the endpoint's API key.", name=name)
        )
    if isinstance(error, openai.NotFoundError):
        return GenerationFailed(
            tr("The model '{name}' is not served at the endpoint's address: an admin checks its base URL and model.", name=name)
        )
    if isinstance(error, openai.RateLimitError):
        return GenerationFailed(tr("The model '{name}' is rate limited by its provider: try again in a moment.", name=name))
    if isinstance(error, openai.APIStatusError):
        detail = scrub(_detail(error), secrets, name) or kind
        return GenerationFailed(
            tr(
                "The model '{name}' answered with an error (HTTP {status}): {detail}",
                name=name,
                status=error.status_code,
                detail=detail,
            )
        )
    if midway and isinstance(error, (openai.APIConnectionError, openai.APIResponseValidationError, *transport)):
        cause = error.__cause__ or error
        return GenerationFailed(
            tr("The connection to the model '{name}' broke off ({kind}).", name=name, kind=type(cause).__name__)
        )
    if isinstance(error, (openai.APIConnectionError, *transport)):
        cause = error.__cause__ or error
        return GenerationFailed(tr("The model '{name}' cannot be reached ({kind}).", name=name, kind=type(cause).__name__))
    detail = scrub(str(getattr(error, "message", "") or error), secrets, name) or kind
    return GenerationFailed(tr("The model '{name}' reported an error: {detail}", name=name, detail=detail))
