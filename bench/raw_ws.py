"""A minimal graphql-transport-ws subscriber for fan-out benchmarks: thousands of them in one process, cheaply.

The `websockets` client parses every frame in Python through several layers; with 2,000 subscribers in the
benchmark's own process, on the same two cores as the API, that client's backlog was part of what a fan-out
benchmark measured. Here each connection is a bare asyncio protocol that notes the arrival time of each `next`
frame as its bytes are read (before any JSON parsing), answers pings, and does nothing else. The server side is
unchanged: the same handshake, subprotocol and messages as any client.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
import time
from collections.abc import Callable
from urllib.parse import urlsplit

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


def _frame(opcode: int, payload: bytes) -> bytes:
    """A client frame (clients must mask)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return header + mask + masked


class Subscriber(asyncio.Protocol):
    """One socket: handshake, connection_init, one subscription; then `on_next(arrival)` for each `next` message."""

    def __init__(self, url: str, query: str, variables: dict, on_next: Callable[[float], None]) -> None:
        self.url, self.query, self.variables, self.on_next = urlsplit(url), query, variables, on_next
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        self.subscribed: asyncio.Future[None] = asyncio.get_running_loop().create_future()  # first `next` came
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:  # type: ignore[override]
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET {self.url.path or '/'} HTTP/1.1\r\nHost: {self.url.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
            ).encode()
        )

    def send(self, message: dict) -> None:
        assert self.transport is not None
        self.transport.write(_frame(TEXT, json.dumps(message).encode()))

    def data_received(self, data: bytes) -> None:
        arrived = time.perf_counter()
        self.buffer += data
        if not self.upgraded:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                self._fail(ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace")))
                return
            self.upgraded, self.buffer = True, rest
            self.send({"type": "connection_init", "payload": {}})
        while True:
            frame = self._next_frame()
            if frame is None:
                return
            opcode, payload = frame
            if opcode == PING:
                assert self.transport is not None
                self.transport.write(_frame(PONG, payload))
            elif opcode == CLOSE:
                self._fail(ConnectionError(f"closed by the server: {payload[2:].decode(errors='replace')}"))
                return
            elif opcode == TEXT:
                self._message(payload, arrived)

    def _next_frame(self) -> tuple[int, bytes] | None:
        buffer = self.buffer
        if len(buffer) < 2:
            return None
        opcode, length, offset = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
        if length == 126:
            if len(buffer) < 4:
                return None
            length, offset = struct.unpack("!H", buffer[2:4])[0], 4
        elif length == 127:
            if len(buffer) < 10:
                return None
            length, offset = struct.unpack("!Q", buffer[2:10])[0], 10
        if len(buffer) < offset + length:
            return None
        self.buffer = buffer[offset + length :]
        return opcode, buffer[offset : offset + length]

    def _message(self, payload: bytes, arrived: float) -> None:
        if b'"next"' in payload:
            if self.subscribed.done():
                self.on_next(arrived)
            else:
                self.subscribed.set_result(None)  # the current state, sent when the subscription starts
        elif b'"connection_ack"' in payload:
            self.send({"id": "1", "type": "subscribe", "payload": {"query": self.query, "variables": self.variables}})
        elif b'"ping"' in payload:
            self.send({"type": "pong"})
        elif b'"error"' in payload or b'"complete"' in payload:
            self._fail(ConnectionError(payload.decode(errors="replace")[:200]))

    def _fail(self, exc: BaseException) -> None:
        for future in (self.subscribed, self.closed):
            if not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved: whoever awaits it sees it, nobody is warned
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("connection closed"))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def subscribe(url: str, query: str, variables: dict, on_next: Callable[[float], None]) -> Subscriber:
    """A connected subscriber, once the subscription's first message (the current state) came."""
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()
    _, protocol = await loop.create_connection(
        lambda: Subscriber(url, query, variables, on_next), parts.hostname, parts.port or 80
    )
    await asyncio.wait_for(asyncio.shield(protocol.subscribed), 60)
    return protocol
