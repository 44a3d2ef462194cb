"""Security headers on every HTTP response (ASGI middleware): no framing, no MIME sniffing, no referrer, and a
Content-Security-Policy that lets the PWA load only from its own origin.

The PWA's policy allows what it needs and nothing else: its own scripts, styles (and the inline `style` attributes
Preact writes), images, the manifest, its service worker and offline model worker, WebAssembly compilation
(onnxruntime-web's offline model, `'wasm-unsafe-eval'`) and connections back to the API (HTTP and its websocket; CSP
3's `'self'` covers ws:/wss: on the same host). GraphiQL at GET /graphql loads its scripts from a CDN, so /graphql
responses carry only `frame-ancestors 'none'`.
"""

from __future__ import annotations

from typing import Any

PWA_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
GRAPHQL_POLICY = "frame-ancestors 'none'"
COMMON = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def policy_for(path: str) -> str:
    return GRAPHQL_POLICY if path == "/graphql" or path.startswith("/graphql/") else PWA_POLICY


class SecurityHeaders:
    """Adds the headers to each HTTP response that does not set them itself."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = (*COMMON, (b"content-security-policy", policy_for(scope.get("path", "")).encode()))

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                message["headers"] = headers + [(name, value) for name, value in added if name not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)
