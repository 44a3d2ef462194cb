"""Request body limits: small for JSON GraphQL requests, large only for multipart uploads."""

from __future__ import annotations

from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    status_code = 413


def body_limit_middleware(json_limit: int, upload_limit: int):
    """ASGI middleware factory: counts bytes as they arrive, so chunked bodies are bounded too."""

    def factory(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            headers = dict(scope.get("headers") or [])
            content_type = headers.get(b"content-type", b"").decode("latin-1").lower()
            limit = upload_limit if content_type.startswith("multipart/form-data") else json_limit
            declared = headers.get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > limit:
                await _reject(send, limit)
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


async def _reject(send: Send, limit: int) -> None:
    body = f'{{"status_code":413,"detail":"The request body is larger than {limit:,} bytes."}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
