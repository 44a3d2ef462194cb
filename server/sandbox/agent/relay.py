"""The agent's doors. ``route`` serves Triton's HTTP API to the host, request by request, each to the Triton of
the model it names (server/sandbox/agent/instances.py): a load starts the model's own Triton, an unload stops
it; health and the repository index are answered here. Every answer is relayed with its length and refused past
the sandbox's limit, except a generate_stream answer, relayed chunk by chunk as it is generated (chunked.py).
``stats`` answers the agent's own questions (memory, which models run, which were stopped and why, killing a model's
processes). Standard library only."""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import sys
import urllib.parse

try:
    from .chunked import COMPLETE, CUT, OVERSIZE, event_chunk, relay_chunks
    from .instances import Instances
    from .processes import WAIT_TIMEOUT, kill_model, stub_peak_bytes
except ImportError:  # run as the folder /sandbox/agent, where the siblings are top-level modules
    from chunked import COMPLETE, CUT, OVERSIZE, event_chunk, relay_chunks  # type: ignore[no-redef]
    from instances import Instances  # type: ignore[no-redef]
    from processes import WAIT_TIMEOUT, kill_model, stub_peak_bytes  # type: ignore[no-redef]

CONTROL_HEADER = "dynabench-control-key"
PIPE_CHUNK = 1 << 16
RESTRICTED = f"This API is restricted, expecting header '{CONTROL_HEADER}'"
MODEL_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")
REPOSITORY = re.compile(r"/v2/repository/models/([^/]+)/(load|unload)")
MODEL_PATH = re.compile(r"/v2/models/([^/]+)(/.*)?")
# The one answer relayed without a length: the generate extension's server-sent events, chunked as they are generated.
GENERATE_STREAM = re.compile(r"/v2/models/[^/]+(/versions/[0-9]+)?/generate_stream")
# How long an answer waits for a model's Triton that stopped mid-request to be told apart from a dropped
# connection, so that the answer can say why.
CRASH_GRACE_S = 2.0
CRASH_CHECK_S = 0.5  # a model's error answer waits at most this long for the watcher to report a stub that died
ERROR_BODY_MAX = 1 << 16


class Request:
    def __init__(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        parts = lines[0].decode("latin-1").split()
        if len(parts) != 3:
            raise ValueError("malformed request line")
        self.method, self.target, _version = parts
        self.path = urllib.parse.urlsplit(self.target).path
        self.headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.decode("latin-1").partition(":")
                self.headers[name.strip().lower()] = value.strip()
        self.head = head
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            raise ValueError("chunked request bodies are not accepted")
        self.length = int(self.headers.get("content-length", "0") or 0)
        if self.length < 0:
            raise ValueError("negative content-length")

    def keeps_alive(self) -> bool:
        return self.headers.get("connection", "").lower() != "close"


def answer(status: int, body: object, keep_alive: bool = True) -> bytes:
    reason = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")
    data = json.dumps(body).encode()
    connection = "keep-alive" if keep_alive else "close"
    head = f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: {connection}\r\n\r\n"
    return head.encode() + data


def error(message: str, status: int = 400) -> bytes:
    return answer(status, {"error": message})


class Router:
    def __init__(self, instances: Instances, key: str, max_response_bytes: int) -> None:
        self.instances = instances
        self.key = key
        self.max_response_bytes = max_response_bytes

    def _authorized(self, request: Request) -> bool:
        return hmac.compare_digest(request.headers.get(CONTROL_HEADER, "").encode(), self.key.encode())

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One client connection: requests one after another (keep-alive), each answered in full."""
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    return
                try:
                    request = Request(head)
                except ValueError as exc:
                    writer.write(answer(400, {"error": str(exc)}, keep_alive=False))
                    await writer.drain()
                    return
                if not await self.handle(request, reader, writer) or not request.keeps_alive():
                    return
        except (ConnectionError, OSError, ValueError, asyncio.LimitOverrunError):
            pass
        finally:
            _close(writer)

    async def handle(self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; False when the connection cannot carry another."""
        path = request.path.rstrip("/")
        if path in ("/v2/health/live", "/v2/health/ready"):
            return await _reply(writer, reader, request, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        if path == "/v2":
            return await _reply(writer, reader, request, answer(200, {"name": "triton", "version": "sandbox", "extensions": []}))
        if path == "/v2/repository/index":
            if not self._authorized(request):
                return await _reply(writer, reader, request, error(RESTRICTED, 403))
            return await _reply(writer, reader, request, answer(200, self.index()))
        if match := REPOSITORY.fullmatch(path):
            model, action = urllib.parse.unquote(match.group(1)), match.group(2)
            if not MODEL_NAME.fullmatch(model):
                return await _reply(writer, reader, request, error("not a model name"))
            if not self._authorized(request):
                return await _reply(writer, reader, request, error(RESTRICTED, 403))
            return await (self.load if action == "load" else self.unload)(model, request, reader, writer)
        if match := MODEL_PATH.fullmatch(path):
            model = urllib.parse.unquote(match.group(1))
            port = self.instances.port_of(model)
            if port is None:
                return await _reply(writer, reader, request, error(self.unavailable(model)))
            return await self.forward(model, port, request, reader, writer) is not None
        return await _reply(writer, reader, request, error("not available in the sandbox"))

    def unavailable(self, model: str) -> str:
        reason = self.instances.failures.get(model)
        if reason:
            return f"model '{model}' was stopped in the sandbox: {reason}"
        return f"Request for unknown model: '{model}' is not found"

    def index(self) -> list[dict[str, str]]:
        rows = [{"name": m, "version": "1", "state": "READY"} for m, i in self.instances.running.items() if not i.stopping]
        rows += [
            {"name": m, "state": "UNAVAILABLE", "reason": r}
            for m, r in self.instances.failures.items()
            if m not in self.instances.running
        ]
        return sorted(rows, key=lambda row: row["name"])

    async def load(self, model: str, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        try:
            instance = await self.instances.ensure(model)
        except (OSError, RuntimeError) as exc:
            return await _reply(writer, reader, request, error(f"failed to load '{model}': {exc}"))
        status = await self.forward(model, instance.port, request, reader, writer)
        if status != 200:  # a failed load leaves nothing to serve: its Triton goes with it
            await self.instances.stop(model)
        return status is not None

    async def unload(self, model: str, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        port = self.instances.port_of(model)
        if port is None:
            await self.instances.stop(model)
            return await _reply(writer, reader, request, answer(200, {}))
        # A model whose Triton stopped answering is as unloaded as it gets: it is stopped here either way, so the
        # caller (the residency manager, an operator) is told it is done rather than that it failed.
        status = await self.forward(model, port, request, reader, writer, gone=answer(200, {}))
        await self.instances.stop(model)
        return status is not None

    async def forward(self, model: str, port: int, request: Request, reader, writer, gone: bytes | None = None) -> int | None:
        """Send the request to the model's Triton and its one response back: its status, or None when the
        client connection cannot carry another request. `gone`: the answer when the model's Triton does not
        answer (else an error saying why)."""
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if gone is not None:
                return 200 if await _reply(writer, reader, request, gone) else None
            return 400 if await _reply(writer, reader, request, error(await self._gone(model))) else None
        try:
            up_writer.write(request.head)
            if not await _copy(reader, request.length, up_writer):
                return None
            try:
                head = await up_reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                writer.write(gone if gone is not None else error(await self._gone(model)))
                await writer.drain()
                return 200 if gone is not None else 400
            streams = request.method == "POST" and GENERATE_STREAM.fullmatch(request.path.rstrip("/")) is not None
            return await self._relay_response(model, head, up_reader, writer, reader if streams else None)
        finally:
            _close(up_writer)

    async def _relay_response(
        self,
        model: str,
        head: bytes,
        up_reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        stream_client: asyncio.StreamReader | None = None,
    ) -> int | None:
        """``stream_client``: the client's reader when the request may be answered by a chunked stream."""
        status = int(head.split(b" ", 2)[1])
        length, chunked = None, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
            elif name.strip().lower() == b"transfer-encoding":
                chunked = value.strip().lower() == b"chunked"
        if length is None and chunked and stream_client is not None:
            return await self._relay_stream(model, status, head, up_reader, writer, stream_client)
        if length is None:  # no framing that can be bounded (Triton always sends a length but for streams): refused
            writer.write(error("the model's Triton answered without a length"))
            await writer.drain()
            return 400
        if length > self.max_response_bytes:
            print(
                f"sandbox agent: refused a {length}-byte response (limit {self.max_response_bytes})", file=sys.stderr, flush=True
            )
            # Its outputs are its own choice: it would answer so again. Stopped, as past any other limit.
            self.instances.fail(
                model,
                f"oversize output: a response of {length:,} bytes, over the sandbox's limit of {self.max_response_bytes:,} bytes",
            )
            writer.write(error(self.unavailable(model)))
            await writer.drain()
            return 400
        if status != 200 and length <= ERROR_BODY_MAX:
            # Triton's word for a stub that died ("not healthy") says less than the agent can: look once more.
            body = await up_reader.readexactly(length)
            if model not in self.instances.failures:
                await self.instances.check_limits()
                await self.instances.wait_for_failure(model, CRASH_CHECK_S)
            writer.write(error(self.unavailable(model)) if model in self.instances.failures else head + body)
            await writer.drain()
            return status
        writer.write(head)
        if not await _copy(up_reader, length, writer):
            return None  # the model's Triton died mid-answer: the client sees the connection drop
        return status

    async def _relay_stream(
        self,
        model: str,
        status: int,
        head: bytes,
        up_reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        client: asyncio.StreamReader,
    ) -> int | None:
        """A generate_stream answer, chunk by chunk as Triton sends it (server/sandbox/agent/chunked.py). Past the
        size limit the model is stopped as for any oversize response, and a broken framing is its failure too; the
        client then gets a last event with the reason when the stream it got so far ends an event (else the
        connection drops). A client that leaves cancels the request (its Triton passes that on to the model)."""
        writer.write(head)
        relay = asyncio.ensure_future(relay_chunks(up_reader, writer, self.max_response_bytes))
        # While it reads a stream the client sends nothing: the end of its side means it left (a stopped reply).
        left = asyncio.ensure_future(client.read(1))
        try:
            await asyncio.wait({relay, left}, return_when=asyncio.FIRST_COMPLETED)
            if not relay.done() and left.result() == b"":
                return None  # closing the upstream connection cancels the request
            relayed = await relay
        finally:
            for task in (relay, left):
                task.cancel()
            await asyncio.wait({relay, left})  # the client's reader is free again once its read has ended
        # A byte of a pipelined request taken while watching: the connection cannot carry it, closed after this one.
        reusable = left.cancelled() or left.exception() is not None or left.result() == b""
        if relayed.outcome == COMPLETE:
            return status if reusable else None
        if relayed.outcome == OVERSIZE:
            print(
                f"sandbox agent: refused a {relayed.body_bytes + relayed.refused}-byte stream (limit {self.max_response_bytes})",
                file=sys.stderr,
                flush=True,
            )
            self.instances.fail(
                model,
                f"oversize output: a streamed response of more than {self.max_response_bytes:,} bytes, over the "
                f"sandbox's limit ({relayed.body_bytes:,} sent, then a chunk of {relayed.refused:,} bytes)",
            )
            reason = self.unavailable(model)
        elif relayed.outcome == CUT:
            reason = await self._gone(model)
        else:
            self.instances.fail(model, f"malformed output: its stream broke HTTP's chunked framing ({relayed.detail})")
            reason = self.unavailable(model)
        if not relayed.at_event_boundary:
            return None
        writer.write(event_chunk(b"data: " + json.dumps({"error": reason}).encode() + b"\n\n"))
        await writer.drain()
        return status if reusable else None

    async def _gone(self, model: str) -> str:
        """Why the model's Triton stopped answering, once its watcher has said (a crash), else a plain message."""
        if await self.instances.wait_for_failure(model, CRASH_GRACE_S):
            return self.unavailable(model)
        return f"model '{model}' stopped answering in the sandbox"


async def _reply(writer: asyncio.StreamWriter, reader: asyncio.StreamReader, request: Request, response: bytes) -> bool:
    """Answer from here, after reading (and dropping) the request's body."""
    if not await _copy(reader, request.length):
        return False
    writer.write(response)
    await writer.drain()
    return True


async def _copy(reader: asyncio.StreamReader, length: int, writer: asyncio.StreamWriter | None = None) -> bool:
    """Move exactly ``length`` bytes from ``reader`` to ``writer`` (or drop them); False when the reader ends first."""
    while length > 0:
        data = await reader.read(min(PIPE_CHUNK, length))
        if not data:
            return False
        length -= len(data)
        if writer is not None:
            writer.write(data)
            await writer.drain()
    return True


def _close(writer: asyncio.StreamWriter) -> None:
    try:
        writer.close()
    except (ConnectionError, OSError):
        pass


def stats_handler(instances: Instances, key: str):
    async def respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One request per connection (HTTP/1.0): ``GET /memory/<model>`` -> {"peak_bytes": N}; with the control
        key, ``GET /models`` -> {"models": {name: resident bytes}, "stopped": {name: why}},
        ``GET /log/<model>`` -> {"tail": the end of its output} and ``POST /kill/<model>`` -> {"killed": N}."""
        try:
            request_line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1").split()
            headers = {}
            while (line := await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            method, path = [*request_line, "", ""][:2]
            body, status = {"error": "not found"}, "404 Not Found"
            if method == "GET" and path.startswith("/memory/"):
                model = urllib.parse.unquote(path[len("/memory/") :])
                body, status = {"peak_bytes": stub_peak_bytes(model)}, "200 OK"
            elif not hmac.compare_digest(headers.get(CONTROL_HEADER, "").encode(), key.encode()):
                body, status = {"error": "forbidden"}, "403 Forbidden"
            elif method == "GET" and path == "/models":
                usage = await asyncio.to_thread(instances.usage)
                body, status = {"models": usage, "stopped": dict(instances.failures)}, "200 OK"
            elif method == "GET" and path.startswith("/log/"):
                model = urllib.parse.unquote(path[len("/log/") :])
                if MODEL_NAME.fullmatch(model):
                    tail = instances.tail(model, 4096).decode("utf-8", errors="replace")
                    body, status = {"tail": tail}, "200 OK"
            elif method == "POST" and path.startswith("/kill/"):
                model = urllib.parse.unquote(path[len("/kill/") :])
                killed = await asyncio.to_thread(kill_model, model)
                await instances.stop(model, graceful=False)
                body, status = {"killed": killed}, "200 OK"
            data = json.dumps(body).encode()
            writer.write(
                f"HTTP/1.0 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data
            )
            await writer.drain()
        except (*WAIT_TIMEOUT, ConnectionError, OSError):
            pass
        finally:
            writer.close()

    return respond
