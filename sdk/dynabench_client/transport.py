"""HTTP with retries: 429 and 5xx answers and unreachable servers are retried with exponential backoff (Retry-After is
respected), as an httpx transport so that every request of the client, uploads and downloads included, gets it.

A request marked `extensions={NOT_IDEMPOTENT: True}` (a model upload: the API has no client id for it) is retried only
when it certainly did not run: the connection was refused, or the answer was 429 or 503.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from dataclasses import dataclass

import httpx

NOT_IDEMPOTENT = "dynabench.not_idempotent"
RETRIED_STATUS = frozenset({429, 500, 502, 503, 504})
SAFE_STATUS = frozenset({429, 503})  # the request was not processed
NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout)
CUT = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    """`max_retries` more attempts after the first; waits `base_delay` · 2^n (± 25 %), at most `max_delay`, or what
    Retry-After asks (at most `max_retry_after`)."""

    max_retries: int = 10
    base_delay: float = 0.5
    max_delay: float = 15.0
    max_retry_after: float = 300.0

    def delay(self, attempt: int, response: httpx.Response | None = None) -> float:
        asked = retry_after(response) if response is not None else None
        if asked is not None:
            return min(asked, self.max_retry_after)
        return min(self.max_delay, self.base_delay * 2.0**attempt) * random.uniform(0.75, 1.25)


def retry_after(response: httpx.Response) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date); None when absent or unreadable."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class RetryingTransport(httpx.AsyncBaseTransport):
    """Wraps an httpx transport; see the module docstring. `retries` counts the retries made (for tests and logs)."""

    def __init__(self, policy: RetryPolicy | None = None, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy or RetryPolicy()
        self.inner = inner or httpx.AsyncHTTPTransport()
        self.retries = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        unsafe = bool(request.extensions.get(NOT_IDEMPOTENT))
        retried = SAFE_STATUS if unsafe else RETRIED_STATUS
        attempt = 0
        while True:
            response: httpx.Response | None = None
            try:
                response = await self.inner.handle_async_request(request)
            except NEVER_SENT:
                if attempt >= self.policy.max_retries:
                    raise
            except CUT:
                if unsafe or attempt >= self.policy.max_retries:
                    raise
            else:
                if response.status_code not in retried or attempt >= self.policy.max_retries:
                    return response
            wait = self.policy.delay(attempt, response)
            if response is not None:
                await response.aclose()
            attempt += 1
            self.retries += 1
            await asyncio.sleep(wait)

    async def aclose(self) -> None:
        await self.inner.aclose()
