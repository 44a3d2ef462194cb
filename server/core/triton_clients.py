"""Clients of the two Tritons: over TCP (``host:port``) or a unix socket (``unix:/path``, the sandbox's
relay), sending the model-control key that Triton's restricted model-repository and model-config APIs
require (the header name is the one the sandbox agent and compose configure)."""

from __future__ import annotations

from typing import Any

import aiohttp
from tritonclient._client import InferenceServerClientBase
from tritonclient._plugin import InferenceServerClientPlugin
from tritonclient.http.aio import InferenceServerClient

CONTROL_HEADER = "dynabench-control-key"


class ControlKey(InferenceServerClientPlugin):
    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, request: Any) -> None:  # tritonclient calls plugins on every request (sync and asyncio)
        request.headers[CONTROL_HEADER] = self.key


class UnixSocketClient(InferenceServerClient):
    """tritonclient's asyncio client with its TCP connector replaced by a unix-socket one."""

    def __init__(self, path: str, conn_timeout: float = 900) -> None:
        InferenceServerClientBase.__init__(self)  # what tritonclient's own __init__ starts with
        self._url = "http://localhost"
        self._conn = aiohttp.UnixConnector(path=path, limit=100)
        self._stub = aiohttp.ClientSession(
            connector=self._conn, timeout=aiohttp.ClientTimeout(total=conn_timeout), auto_decompress=False
        )
        self._verbose = False


def triton_client(url: str, control_key: str = "", *, conn_timeout: float = 900) -> InferenceServerClient:
    """An asyncio Triton HTTP client; must be created inside a running event loop."""
    client: InferenceServerClient
    if url.startswith("unix:"):
        client = UnixSocketClient(url[len("unix:") :], conn_timeout)
    else:
        client = InferenceServerClient(url, conn_timeout=conn_timeout)
    if control_key:
        client.register_plugin(ControlKey(control_key))
    return client


async def agent_request(url: str, path: str, *, method: str = "GET", control_key: str = "", timeout: float = 10.0) -> Any:
    """A JSON request to the sandbox agent's stats endpoint at ``unix:/socket`` or ``http://host:port``."""
    if url.startswith("unix:"):
        connector: aiohttp.BaseConnector = aiohttp.UnixConnector(path=url[len("unix:") :])
        base = "http://localhost"
    else:
        connector, base = aiohttp.TCPConnector(), url.rstrip("/")
    headers = {CONTROL_HEADER: control_key} if control_key else {}
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=timeout)) as session:
        async with session.request(method, base + path, headers=headers) as response:
            response.raise_for_status()
            return await response.json(content_type=None)


def plain_session(client: InferenceServerClient) -> tuple[aiohttp.ClientSession, str, dict[str, str]]:
    """The aiohttp session, base URL and headers of a tritonclient asyncio client, for the endpoints tritonclient has
    no call for (the generate extension's streams): same connector (TCP or the relay's unix socket), same key."""
    headers = {"Accept-Encoding": "identity"}
    plugin = client.plugin()
    if isinstance(plugin, ControlKey):
        headers[CONTROL_HEADER] = plugin.key
    return client._stub, client._url, headers
