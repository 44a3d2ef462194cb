"""Request ids, HTTP counters and an optional access log (an ASGI wrapper), and `GET /metrics`.

The wrapper sits outside Litestar's router (`app.asgi_handler`), so 404s and 405s get a request
id and are counted too. Per request it scans the headers once, sets a contextvar, and adds
`X-Request-ID` to the response start message.
"""

from __future__ import annotations

import hmac
import logging
import time
from typing import Any

from litestar import MediaType, Request, Response, get

from server.observability.logs import new_request_id, request_id_var, valid_request_id
from server.observability.metrics import HTTP_REQUESTS, render

HEADER = b"x-request-id"
METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
UNMATCHED = "unmatched"
access_log = logging.getLogger("dynabench.access")
errors_log = logging.getLogger("dynabench.errors")


async def log_unhandled(exception: BaseException, scope: dict) -> None:
    """Litestar `after_exception` hook: an exception that becomes a 5xx is logged (with the request id)."""
    status = getattr(exception, "status_code", 500)
    if isinstance(status, int) and status >= 500:
        errors_log.error(
            "unhandled %s on %s %s",
            type(exception).__name__,
            scope.get("method", "WS"),
            scope.get("path_template") or UNMATCHED,
            exc_info=exception,
        )


class RequestContext:
    """ASGI middleware: request id in and out, `dynabench_http_requests_total`, access log (opt-in)."""

    def __init__(self, app: Any, log_requests: bool = False) -> None:
        self.app = app
        self.log_requests = log_requests
        self.counters: dict[tuple[str, str, int], Any] = {}

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        request_id = None
        for name, value in scope["headers"]:
            if name == HEADER:
                request_id = value.decode("latin-1")
                break
        if request_id is None or not valid_request_id(request_id):
            request_id = new_request_id()
        token = request_id_var.set(request_id)
        if kind == "websocket":
            try:
                await self.app(scope, receive, send)
            finally:
                request_id_var.reset(token)
            return
        started = time.perf_counter()
        status = 500
        header = (b"x-request-id", request_id.encode())

        async def send_with_id(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            method = scope["method"] if scope["method"] in METHODS else "OTHER"
            route = scope.get("path_template") or UNMATCHED
            key = (method, route, status)
            counter = self.counters.get(key)
            if counter is None:
                counter = self.counters[key] = HTTP_REQUESTS.labels(method, route, str(status))
            counter.inc()
            if self.log_requests:
                client = scope.get("client")
                access_log.info(
                    "%s %s %d",
                    method,
                    route,
                    status,
                    extra={
                        "method": method,
                        "route": route,
                        "status": status,
                        "client": client[0] if client else None,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
            request_id_var.reset(token)


def metrics_handler(token: str):
    """`GET /metrics` (Prometheus text format); with METRICS_TOKEN set, only for `Authorization: Bearer <token>`."""
    expected = f"Bearer {token}".encode() if token else None

    @get("/metrics", include_in_schema=False, sync_to_thread=False, media_type=MediaType.TEXT)
    def metrics(request: Request) -> Response:
        if expected is not None:
            given = request.headers.get("authorization", "").encode()
            if not hmac.compare_digest(given, expected):
                return Response(
                    "metrics need the METRICS_TOKEN bearer token\n", status_code=401, headers={"WWW-Authenticate": "Bearer"}
                )
        body, content_type = render()
        return Response(body, media_type=content_type)

    return metrics
