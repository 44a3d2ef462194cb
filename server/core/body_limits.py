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


# Why an Authorization header (or its absence) may not upload: (error code, message), None for a live account.
UploadRefusal = Callable[[str | None], Awaitable[tuple[str, str] | None]]


def body_limit_middleware(json_limit: int, upload_limit: int, upload_refusal: UploadRefusal | None = None):
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
            if multipart and upload_refusal is not None:
                refused = await upload_refusal(authorization.decode("latin-1") if authorization else None)
                if refused is not None:  # answered as GraphQL answers an anonymous call, the body left unread
                    code, message = refused
                    await _respond(send, 200, {"data": None, "errors": [{"message": message, "extensions": {"code": code}}]})
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
    await _respond(send, status, {"status_code": status, "detail": detail})


async def _respond(send: Send, status: int, content: object) -> None:
    body = json.dumps(content).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
