"""graphql-transport-ws with credentials that stay checked for as long as a socket is open.

A WebSocket lives for hours with the credentials of its `connection_init`, so they are checked again:
* on `connection_init`: invalid credentials are refused (close 4403), never taken as anonymous;
* on every `subscribe` message (each operation): afresh from the token, and the account facts re-read;
* while the socket is open: it listens on its account's channel (events.CredentialsRevoked, published by
  revokeApiToken through Redis, so every API process hears it) and re-checks on each event and after
  every Redis reconnect (events may have been missed); a session is re-checked when its JWT expires.
Credentials that no longer hold close the socket (4403, with the reason). Mutations are not served over
the socket (server/graphql/core/operation_rules.py): they go over HTTP, where each request is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from litestar.exceptions import WebSocketDisconnect
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from strawberry.subscriptions.protocols.graphql_transport_ws.types import ConnectionInitMessage, Message, SubscribeMessage

from server.core import events
from server.core.errors import ServiceError
from server.core.event_hub import HubListener
from server.graphql.core.shared_events import encoded_next

log = logging.getLogger("dynabench.websocket")

CLOSE_CREDENTIALS = 4403  # graphql-transport-ws: Forbidden
REDIS_RETRY_S = 5.0  # while Redis is unreachable, credentials are re-checked this often instead


async def reject_bad_credentials(context: Any) -> None:
    """`on_ws_connect`: credentials that are sent must be valid (no silent fallback to anonymous)."""
    try:
        await context.recheck_credentials()
    except ServiceError:
        raise ConnectionRejectionError from None


class _Closed(Exception):
    """The socket was closed for its credentials."""


class GuardedTransportWSHandler(BaseGraphQLTransportWSHandler):
    _watcher: asyncio.Task[None] | None = None

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        await super().handle_connection_init(message)
        if self.connection_acknowledged and self._watcher is None:
            self._watcher = asyncio.create_task(self._watch_credentials())
            self._watcher.add_done_callback(self._task_done)

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if self.connection_acknowledged:
            try:
                await self._recheck()
            except _Closed:
                return
        await super().handle_subscribe(message)

    async def send_message(self, message: Message) -> None:
        """A `next` message of a result shared by many watchers (shared_events.py) is sent as JSON encoded once."""
        payload = message.get("payload")
        sender = getattr(self.websocket, "ws", None)
        if message["type"] == "next" and isinstance(payload, dict) and payload.keys() == {"data"} and sender is not None:
            text = encoded_next(message["id"], payload["data"], self.view.encode_json_string)
            if text is not None:
                try:
                    await sender.send_data(data=text)
                except WebSocketDisconnect as exc:
                    raise WebSocketDisconnected from exc
                return
        await super().send_message(message)

    async def shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(BaseException):
                await self._watcher
        await super().shutdown()

    async def _recheck(self) -> None:
        try:
            await self.context.recheck_credentials()
        except ServiceError as exc:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=CLOSE_CREDENTIALS, reason=exc.message[:120])
            raise _Closed from None

    async def _watch_credentials(self) -> None:
        try:
            principal = await self.context.principal()
            if principal is None:
                return  # anonymous: nothing to revoke
            hub = self.context.services.hub
            channel = events.account_channel(principal.user_id)
            while True:
                try:
                    async with hub.listen(channel) as changes:
                        await self._recheck()  # anything revoked before the subscription was confirmed
                        while True:
                            await self._next_change(changes, principal.expires_at)
                            await self._recheck()
                except ConnectionError:  # Redis unreachable: check now and then until it is back
                    await self._recheck()
                    await asyncio.sleep(_until(principal.expires_at, REDIS_RETRY_S))
        except _Closed:
            return
        except Exception:  # never let the watcher fail silently
            log.exception("the credential watcher of a WebSocket failed; closing it")
            with contextlib.suppress(Exception):
                await self.websocket.close(code=1011, reason="Internal error; reconnect.")

    @staticmethod
    async def _next_change(changes: HubListener, expires_at: float | None) -> None:
        """The next event on the account's channel (or a resync), or the session's expiry."""
        if expires_at is None:
            await anext(changes)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(anext(changes), _until(expires_at, None))


def _until(expires_at: float | None, cap: float | None) -> float:
    """Seconds until just after an expiry (at most `cap`)."""
    if expires_at is None:
        return cap if cap is not None else 0.0
    wait = max(0.0, expires_at - time.time() + 0.05)
    return min(wait, cap) if cap is not None else wait
