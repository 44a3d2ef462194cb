"""The sandbox agent's relay of a chunked stream (server/sandbox/agent/chunked.py, relay.py): the generate extension's
server-sent events pass chunk by chunk as they arrive, bounded by the response limit; a broken framing or an oversize
stream stops the model with the reason, said to the client in a last event; a client that leaves ends the request.
On loopback sockets with a stand-in for a model's Triton: no Triton, no sandbox."""

from __future__ import annotations

import asyncio
import json

import pytest

from server.sandbox.agent.chunked import COMPLETE, CUT, MALFORMED, OVERSIZE, Framing, chunk_size, relay_chunks
from server.sandbox.agent.relay import Router


def event(text: str) -> bytes:
    return b"data: " + json.dumps({"text_output": text}).encode() + b"\n\n"


def chunk(data: bytes, extension: bytes = b"") -> bytes:
    return b"%x%s\r\n%s\r\n" % (len(data), extension, data)


class Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        pass


def relay(body: bytes, budget: int = 1 << 20, eof: bool = True):
    async def go():
        reader = asyncio.StreamReader()
        reader.feed_data(body)
        if eof:
            reader.feed_eof()
        sink = Sink()
        return await relay_chunks(reader, sink, budget), bytes(sink.data)  # type: ignore[arg-type]

    return asyncio.run(go())


def test_chunk_size_lines_are_read_strictly():
    assert chunk_size(b"1a\r\n") == 26 and chunk_size(b"0\r\n") == 0 and chunk_size(b"FF;name=value\r\n") == 255
    for line in (
        b"\r\n",
        b"1a\n",
        b"-1\r\n",
        b"0x10\r\n",
        b"zz\r\n",
        b" 1\r\n",
        b"1" * 16 + b"\r\n",
        b"1;" + b"x" * 2000 + b"\r\n",
    ):
        with pytest.raises(Framing):
            chunk_size(line)


def test_a_stream_is_relayed_whole_extensions_and_trailers_dropped():
    body = chunk(event(" Paris"), b";x=1") + chunk(event(" is")) + b"0\r\nX-Trailer: 1\r\n\r\n"
    relayed, sent = relay(body)
    assert relayed.outcome == COMPLETE and relayed.at_event_boundary
    assert sent == chunk(event(" Paris")) + chunk(event(" is")) + b"0\r\n\r\n"
    assert relayed.body_bytes == len(event(" Paris")) + len(event(" is"))


def test_past_the_budget_nothing_of_the_next_chunk_is_sent():
    first, second = event("a" * 50), event("b" * 50)
    relayed, sent = relay(chunk(first) + chunk(second) + b"0\r\n\r\n", budget=len(first) + len(second) - 1)
    assert relayed.outcome == OVERSIZE and relayed.refused == len(second) and relayed.body_bytes == len(first)
    assert sent == chunk(first) and relayed.at_event_boundary


@pytest.mark.parametrize(
    "body, where",
    [
        (chunk(event("x")) + b"zz\r\n", "is not a chunk size"),
        (b"5\r\nhelloXY", "instead of CRLF"),
        (b"1" * 70_000, "a line of more than"),
        (b"0\r\n" + b"X: " + b"y" * 9000 + b"\r\n\r\n", "a line of more than"),
    ],
)
def test_a_broken_framing_is_reported_with_where(body, where):
    relayed, _sent = relay(body)
    assert relayed.outcome == MALFORMED and where in relayed.detail, relayed


def test_a_stream_cut_mid_event_is_not_at_an_event_boundary():
    relayed, sent = relay(chunk(event("x")) + b"40\r\ndata: {", eof=True)
    assert relayed.outcome == CUT and not relayed.at_event_boundary and sent.endswith(b"data: {")
    relayed, _ = relay(chunk(event("x")), eof=True)
    assert relayed.outcome == CUT and relayed.at_event_boundary


def test_each_chunk_is_sent_on_before_the_next_arrives():
    async def go():
        reader, sink = asyncio.StreamReader(), Sink()
        task = asyncio.ensure_future(relay_chunks(reader, sink, 1 << 20))  # type: ignore[arg-type]
        reader.feed_data(chunk(event(" one")))
        for _ in range(500):  # sent on while the stream is still open, not held until its end
            if sink.data:
                break
            await asyncio.sleep(0.01)
        assert bytes(sink.data) == chunk(event(" one"))
        reader.feed_data(b"3")  # half a size line: nothing more goes out
        await asyncio.sleep(0.05)
        assert bytes(sink.data) == chunk(event(" one"))
        reader.feed_data(b"\r\nabc\r\n0\r\n\r\n")
        return await task

    assert asyncio.run(go()).outcome == COMPLETE


class FakeInstances:
    """What the router asks of instances.py: one model served on ``port``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.failures: dict[str, str] = {}
        self.running: dict = {}

    def port_of(self, model: str) -> int | None:
        return None if model in self.failures else self.port

    def fail(self, model: str, reason: str) -> None:
        self.failures.setdefault(model, reason)

    async def wait_for_failure(self, model: str, timeout_s: float) -> str | None:
        return self.failures.get(model)


HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"


async def through_router(upstream_body, path="/v2/models/m/generate_stream", budget=1 << 20, leave_after=None, until=b""):
    """A request through a Router to a stand-in Triton that answers ``upstream_body`` (bytes, or a list of parts sent
    0.05 s apart); (what the client read, the instances, whether the stand-in saw its connection close early)."""
    closed_early = asyncio.Event()

    async def triton(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        parts = upstream_body if isinstance(upstream_body, list) else [upstream_body]
        writer.write(HEAD)
        try:
            for part in parts:
                writer.write(part)
                await writer.drain()
                try:  # the relay sends nothing more after the body: an end of its side means it left
                    if await asyncio.wait_for(reader.read(1), 0.05) == b"":
                        closed_early.set()
                        break
                except TimeoutError:
                    continue
        except ConnectionError:
            closed_early.set()
        writer.close()

    server = await asyncio.start_server(triton, "127.0.0.1", 0)
    instances = FakeInstances(server.sockets[0].getsockname()[1])
    router = Router(instances, "key", budget)  # type: ignore[arg-type]
    front = await asyncio.start_server(router.serve, "127.0.0.1", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", front.sockets[0].getsockname()[1])
    writer.write(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}".encode())
    received = b""
    try:
        while not received.endswith(until or b"\r\n0\r\n\r\n") and (data := await asyncio.wait_for(reader.read(1 << 16), 5)):
            received += data
            if leave_after and leave_after in received:
                writer.close()
                await asyncio.wait_for(closed_early.wait(), 5)
                break
    finally:
        writer.close()
        front.close()
        server.close()
        await asyncio.sleep(0.2)  # the connections' handlers end (else the loop's end cancels them)
    return received, instances, closed_early.is_set()


def test_the_router_relays_a_stream_then_says_why_an_oversize_one_was_stopped():
    parts = [chunk(event(f" w{i}")) for i in range(5)]
    received, instances, _ = asyncio.run(through_router([*parts, b"0\r\n\r\n"]))
    assert received == HEAD + b"".join(parts) + b"0\r\n\r\n" and not instances.failures

    budget = sum(len(event(f" w{i}")) for i in range(3))
    received, instances, _ = asyncio.run(through_router([*parts, b"0\r\n\r\n"], budget=budget))
    assert instances.failures["m"].startswith("oversize output: a streamed response of more than")
    last = received.split(b"\r\n")[-4]
    assert received.startswith(HEAD + b"".join(parts[:3])) and b"was stopped in the sandbox: oversize output" in last


def test_the_router_fails_a_model_whose_stream_breaks_its_framing():
    received, instances, _ = asyncio.run(through_router([chunk(event(" a")), b"zz\r\n"]))
    assert instances.failures["m"].startswith("malformed output: its stream broke HTTP's chunked framing")
    assert b"malformed output" in received and received.endswith(b"\r\n0\r\n\r\n")


def test_a_chunked_answer_elsewhere_is_refused_as_before():
    received, _, _ = asyncio.run(through_router([chunk(b"{}"), b"0\r\n\r\n"], path="/v2/models/m/infer", until=b"}"))
    assert b"400 Bad Request" in received and b"answered without a length" in received


def test_a_client_that_leaves_ends_the_request_upstream():
    slow = [chunk(event(" first"))] + [b""] * 30  # then silence: the model thinks for a while
    _received, instances, closed_early = asyncio.run(through_router(slow, leave_after=b"first"))
    assert closed_early and not instances.failures
