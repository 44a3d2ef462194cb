"""Request body limits: small for JSON GraphQL requests, large only for multipart uploads, and those only from a
signed-in caller: a multipart body is refused by its size and its credentials before a byte of it is read (the form
parser would otherwise spool an anonymous caller's file to disk first)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    status_code = 413


SignedIn = Callable[[str | None], Awaitable[bool]]  # whether an Authorization header names a live account


def body_limit_middleware(json_limit: int, upload_limit: int, signed_in: SignedIn | None = None):
    """ASGI middleware factory: counts bytes as they arrive, so chunked bodies are bounded too."""

    def factory(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            headers = dict(scope.get("headers") or [])
            content_type = headers.get(b"content-type", b"").decode("latin-1").lower()
            multipart = content_type.startswith("multipart/form-data")
            limit = upload_limit if multipart else json_limit
            declared = headers.get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > limit:
                await _reject(send, 413, f"The request body is larger than {limit:,} bytes.")
                return
            authorization = headers.get(b"authorization")
            if (
                multipart
                and signed_in is not None
                and not await signed_in(authorization.decode("latin-1") if authorization else None)
            ):
                await _reject(send, 401, "Uploads need a signed-in account: send Authorization: Bearer <session or API token>.")
                return
            received = 0

            async def counted() -> Message:
                nonlocal received
                message = await receive()
                if message["type"] == "http.request":
                    received += len(message.get("body", b""))
                    if received > limit:
                        raise BodyTooLarge(detail=f"The request body is larger than {limit:,} bytes.")
                return message

            await app(scope, counted, send)

        return middleware

    return factory


async def _reject(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"status_code": status, "detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
