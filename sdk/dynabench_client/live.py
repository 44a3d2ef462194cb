"""Subscriptions (graphql-transport-ws) that survive a dropped connection: they reconnect with backoff and, before
streaming again, re-read the current state over HTTP, so that nothing that changed while disconnected is missed."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from typing import TypeVar

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .errors import AuthenticationError, DynabenchError, TransportError
from .generated.exceptions import GraphQLClientError, GraphQLClientGraphQLMultiError

T = TypeVar("T")
# Close codes the server uses for a refusal that another try would not change (bad credentials, a bad request).
REFUSED = {4400: "bad request", 4401: "unauthorized", 4403: "forbidden", 4429: "too many initialisation requests"}


async def follow(
    open_stream: Callable[[], AsyncIterator[T]],
    current: Callable[[], Awaitable[T | None]] | None = None,
    *,
    max_reconnects: int | None = 30,
    max_delay: float = 10.0,
) -> AsyncIterator[T]:
    """The subscription's items; after a dropped connection, `current()` (the state re-read over HTTP) first, then the
    new subscription's items. Ends when the server completes the subscription. `reconnects` of the generator are
    unlimited when `max_reconnects` is None; otherwise a TransportError ends it after that many failures in a row."""
    failures = 0
    reconnected = False
    while True:
        try:
            if reconnected and current is not None:
                state = await current()
                if state is not None:
                    yield state
            async with aclosing(open_stream()) as stream:  # type: ignore[type-var]
                async for item in stream:
                    failures = 0
                    yield item
            return
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code in REFUSED:
                message = exc.rcvd.reason if exc.rcvd is not None and exc.rcvd.reason else REFUSED[code]
                if code in (4401, 4403):
                    raise AuthenticationError("AUTHENTICATION_FAILED", message) from exc
                raise DynabenchError(f"the subscription was refused ({code}): {message}") from exc
            error: Exception = exc
        except GraphQLClientGraphQLMultiError:
            raise  # the operation itself was refused: the caller translates it
        except (TimeoutError, OSError, InvalidHandshake, GraphQLClientError, TransportError) as exc:
            error = exc
        failures += 1
        if max_reconnects is not None and failures > max_reconnects:
            raise TransportError(f"the subscription could not reconnect after {max_reconnects} tries: {error}") from error
        reconnected = True
        await asyncio.sleep(min(max_delay, 0.25 * 2**failures) * random.uniform(0.75, 1.25))
