"""Sending one webhook request: the address guard applied to what the host resolves to now, and the request sent to
the very address that was checked (no second lookup a DNS answer could change in between), without redirects."""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass

import httpx

from server.core.i18n import tr
from server.webhooks.addresses import IPAddress, Target, UrlRefused, check_addresses, parse_target

RESOLVE_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class Sent:
    status_code: int | None  # None: no HTTP answer (refused, unreachable, timed out)
    error: str | None  # what went wrong, in words for the hook's owner (no internals)
    duration_ms: float

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


async def checked_target(url: str, allow_private: bool) -> tuple[Target, list[IPAddress]]:
    """The URL's target and the addresses it may be called at now; UrlRefused otherwise. With private targets
    allowed nothing is resolved here (there is nothing to refuse): the HTTP client resolves as usual."""
    target = parse_target(url, allow_private)
    if allow_private:
        return target, []
    if target.literal is not None:
        return target, check_addresses([str(target.literal)], allow_private)
    try:
        infos = await asyncio.wait_for(
            asyncio.get_running_loop().getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM), RESOLVE_TIMEOUT_S
        )
    except (OSError, TimeoutError, UnicodeError):
        raise UrlRefused(tr("The URL's host does not resolve.")) from None
    return target, check_addresses([str(info[4][0]) for info in infos], allow_private)


async def send(url: str, body: bytes, headers: dict[str, str], timeout_s: float, allow_private: bool) -> Sent:
    started = time.perf_counter()

    def done(status_code: int | None, error: str | None) -> Sent:
        return Sent(status_code, error, round((time.perf_counter() - started) * 1000, 2))

    try:
        target, addresses = await checked_target(url, allow_private)
    except UrlRefused as refused:
        return done(None, str(refused))
    request_url, extensions = url, {}
    headers = {**headers, "Content-Type": "application/json", "User-Agent": "Dynabench-Webhooks/1"}
    if addresses:  # pinned: connect to the checked address, with the URL's host for Host and TLS (SNI, certificate)
        request_url = str(httpx.URL(url).copy_with(host=str(addresses[0])))
        default_port = 443 if target.scheme == "https" else 80
        headers["Host"] = target.host if target.port == default_port else f"{target.host}:{target.port}"
        if target.scheme == "https":
            extensions["sni_hostname"] = target.host
    try:
        # A client per request: pooled connections are keyed by address, and a TLS connection made for one host
        # name must not carry another's request.
        # httpx's timeout bounds each phase (connect, write, read); the outer one bounds the whole attempt.
        async with (
            asyncio.timeout(timeout_s),
            httpx.AsyncClient(follow_redirects=False, trust_env=False, timeout=timeout_s) as client,
        ):
            request = client.build_request("POST", request_url, content=body, headers=headers, extensions=extensions)
            response = await client.send(request, stream=True)  # the answer's body is never read
            await response.aclose()
    except (httpx.TimeoutException, TimeoutError):
        return done(None, f"No answer within {timeout_s:g} s.")
    except httpx.ConnectError:
        return done(None, "Could not connect (refused, unreachable, or the TLS handshake failed).")
    except httpx.HTTPError as exc:
        return done(None, f"The request failed ({type(exc).__name__}).")
    if 300 <= response.status_code < 400:
        return done(response.status_code, "Redirects are not followed: give the final URL.")
    return done(response.status_code, None if 200 <= response.status_code < 300 else f"HTTP {response.status_code}")
