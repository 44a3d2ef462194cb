"""The reader's language for one operation: the Accept-Language header (the PWA sends its UI language), or over
WebSocket the connection's `locale` parameter. Expected errors are said in it (server/core/i18n.py)."""

from __future__ import annotations

from collections.abc import Iterator

from strawberry.extensions import SchemaExtension

from server.core.i18n import negotiate, reader_locale


def _requested_language(context: object) -> str | None:
    request = getattr(context, "request", None)
    if request is not None:
        return request.headers.get("accept-language")
    params = getattr(context, "connection_params", None) or {}
    value = params.get("locale") if isinstance(params, dict) else None
    return value if isinstance(value, str) else None


class ReaderLocale(SchemaExtension):
    """First of the schema's extensions, so that error masking (which runs on the way out) still sees it."""

    def on_operation(self) -> Iterator[None]:
        token = reader_locale.set(negotiate(_requested_language(self.execution_context.context)))
        try:
            yield
        finally:
            reader_locale.reset(token)
