"""Tools that break things on purpose: a TCP proxy that cuts connections, and API process control."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx

from server.runtime import free_port


@dataclass
class ChaosStats:
    connections: int = 0
    cut_requests: int = 0  # closed after part of the request reached the API
    cut_replies: int = 0  # the API answered, the client never saw it (a "lost reply")
    upstream_refused: int = 0  # the API was down


@dataclass
class ChaosProxy:
    """127.0.0.1 TCP proxy in front of `upstream_port`. Each connection, with the given rates, is cut
    mid-request or loses its reply; clients should open one connection per request to feel it."""

    upstream_port: int
    cut_request_rate: float = 0.1
    cut_reply_rate: float = 0.1
    seed: int = 7
    port: int = field(default_factory=free_port)
    stats: ChaosStats = field(default_factory=ChaosStats)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> ChaosProxy:
        self._thread.start()
        assert self._ready.wait(10), "the chaos proxy did not start"
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", self.port))
        self._ready.set()
        self._loop.run_forever()

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.stats.connections += 1
        roll = self._random.random()
        fate = (
            "cut_request"
            if roll < self.cut_request_rate
            else ("cut_reply" if roll < self.cut_request_rate + self.cut_reply_rate else "pass")
        )
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            self.stats.upstream_refused += 1
            client_writer.close()
            return
        try:
            if fate == "cut_request":
                first = await client_reader.read(65536)
                upstream_writer.write(first[: max(1, len(first) // 2)])
                await upstream_writer.drain()
                self.stats.cut_requests += 1
                return
            to_upstream = asyncio.ensure_future(_pipe(client_reader, upstream_writer))
            if fate == "cut_reply":
                # Everything the client sends goes through; the first reply bytes are dropped and
                # both sides closed, once the API has done the work.
                await upstream_reader.read(1)
                self.stats.cut_replies += 1
                to_upstream.cancel()
                return
            await asyncio.gather(to_upstream, _pipe(upstream_reader, client_writer), return_exceptions=True)
        finally:
            for writer in (client_writer, upstream_writer):
                writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        if writer.can_write_eof():
            try:
                writer.write_eof()
            except OSError:
                pass


class ApiProcess:
    """One `dynabench serve` on a fixed port of the test stack, which the test may kill and restart."""

    def __init__(self, stack):
        self.stack = stack
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.restarts = 0
        self.process = None

    def start(self) -> None:
        name = f"api-faults-{uuid.uuid4().hex[:6]}"
        self.process = self.stack.group.spawn(
            name,
            [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.stack.env,
            log_path=self.stack.logs / f"{name}.log",
        )
        wait_for(lambda: healthy(self.url), timeout=120, what=f"API on {self.url}")

    def restart(self, sig: int) -> None:
        os.kill(self.process.pid, sig)
        self.process.wait(timeout=60)
        self.restarts += 1
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)


def healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def wait_for(condition, timeout: float, what: str, interval: float = 0.3):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


SIGNALS = {"graceful": signal.SIGTERM, "killed": signal.SIGKILL}
