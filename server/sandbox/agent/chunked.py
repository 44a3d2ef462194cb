"""Relaying a chunked HTTP/1.1 response (RFC 9112 §7.1) chunk by chunk as it arrives: the answer of Triton's generate
extension (``POST /v2/models/<m>[/versions/<v>]/generate_stream``, server-sent events, one event per chunk), whose
tokens must reach the host as they are generated. Nothing is held back: a chunk's size line is sent on as soon as it
is read and its data as it arrives. The body's bytes together are bounded by a budget (the sandbox's
``--max-response-bytes``), checked on each chunk's declared size before any of it is sent, so the client's framing
is always whole where the relay stops. Standard library only (runs inside the sandbox)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

PIPE_CHUNK = 1 << 16
MAX_SIZE_LINE = 1024  # a chunk-size line, extensions included
MAX_TRAILERS = 8 << 10  # the trailer section after the last chunk (read and dropped)
_HEX = frozenset(b"0123456789abcdefABCDEF")

COMPLETE = "complete"  # the last chunk came: the client got the whole stream, its framing ended
OVERSIZE = "oversize"  # the next chunk would pass the budget: nothing of it was sent
MALFORMED = "malformed"  # the framing broke: nothing after the last whole chunk was sent
CUT = "cut"  # the upstream connection ended before the last chunk


class Framing(ValueError):
    """The upstream's chunked framing is broken; the message says where."""


@dataclass
class Relayed:
    outcome: str
    body_bytes: int  # chunk data sent on to the client
    at_event_boundary: bool  # the data sent so far ends a server-sent event (or none was sent): one may be added
    detail: str = ""  # what broke (MALFORMED)
    refused: int = 0  # the declared size of the chunk that would have passed the budget (OVERSIZE)


def chunk_size(line: bytes) -> int:
    """The size a chunk-size line declares: hex digits, optional ``;extensions``, CRLF (Framing otherwise)."""
    if not line.endswith(b"\r\n"):
        raise Framing("a chunk-size line without its CRLF")
    if len(line) > MAX_SIZE_LINE:
        raise Framing(f"a chunk-size line of more than {MAX_SIZE_LINE} bytes")
    digits = line[:-2].split(b";", 1)[0].rstrip(b" \t")
    if not digits or len(digits) > 15 or not set(digits) <= _HEX:
        raise Framing(f"{_quoted(line)} is not a chunk size")
    return int(digits, 16)


def _quoted(data: bytes) -> str:
    return repr(data[:40].decode("latin-1")) + ("…" if len(data) > 40 else "")


class _Cut(Exception):
    """The upstream connection ended (or failed) before the last chunk."""


async def _read(call):
    try:
        return await call
    except (asyncio.IncompleteReadError, ConnectionError, OSError):
        raise _Cut() from None


async def _line(reader: asyncio.StreamReader, limit: int) -> bytes:
    """One CRLF-ended line of at most ``limit`` bytes (Framing when longer)."""
    try:
        line = await _read(reader.readuntil(b"\r\n"))
    except asyncio.LimitOverrunError:
        raise Framing(f"a line of more than {limit} bytes") from None
    if len(line) > limit:
        raise Framing(f"a line of more than {limit} bytes")
    return line


async def relay_chunks(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, budget: int) -> Relayed:
    """Copy a chunked body from ``reader`` to ``writer`` as it arrives, re-framed chunk for chunk (extensions and
    trailers dropped). Errors on the ``writer`` side (the client left) propagate."""
    sent, tail = 0, b"\n\n"

    def result(outcome: str, detail: str = "", refused: int = 0) -> Relayed:
        return Relayed(outcome, sent, tail == b"\n\n", detail, refused)

    try:
        while True:
            size = chunk_size(await _line(reader, MAX_SIZE_LINE))
            if size == 0:
                trailers = 0
                while (line := await _line(reader, MAX_TRAILERS)) != b"\r\n":
                    trailers += len(line)
                    if trailers > MAX_TRAILERS:
                        raise Framing(f"trailers of more than {MAX_TRAILERS} bytes")
                writer.write(b"0\r\n\r\n")
                await writer.drain()
                return result(COMPLETE)
            if sent + size > budget:
                return result(OVERSIZE, refused=size)
            writer.write(b"%x\r\n" % size)
            left = size
            while left:
                data = await _read(reader.read(min(PIPE_CHUNK, left)))
                if not data:
                    raise _Cut()
                left -= len(data)
                sent += len(data)
                tail = (tail + data)[-2:]
                writer.write(data)
                await writer.drain()
            end = await _read(reader.readexactly(2))
            if end != b"\r\n":
                raise Framing(f"a chunk of {size} bytes followed by {_quoted(end)} instead of CRLF")
            writer.write(b"\r\n")
            await writer.drain()
    except Framing as exc:
        return result(MALFORMED, str(exc))
    except _Cut:
        return result(CUT)


def event_chunk(data: bytes) -> bytes:
    """One more chunk carrying ``data`` (a whole server-sent event), then the last chunk."""
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data)
