"""The connection every client method goes through: the generated typed client over a retrying httpx client, the
WebSocket address and credentials for subscriptions, and the translation of transport and GraphQL failures into this
package's exceptions."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import httpx

from .errors import GraphQLError, TransportError
from .generated import GeneratedClient
from .generated.exceptions import (
    GraphQLClientGraphQLMultiError,
    GraphQLClientHttpError,
    GraphQLClientInvalidResponseError,
)
from .transport import RetryingTransport, RetryPolicy

T = TypeVar("T")
TOKEN_VARIABLE = "DYNABENCH_TOKEN"


def endpoints(api_url: str) -> tuple[str, str, str]:
    """(origin, GraphQL URL, WebSocket URL) from the API's address, with or without its `/graphql` path."""
    parts = urlsplit(api_url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"api_url must be an http(s) address such as http://127.0.0.1:8000, not {api_url!r}")
    path = parts.path.rstrip("/").removesuffix("/graphql")
    origin = f"{parts.scheme}://{parts.netloc}{path}"
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    return origin, f"{origin}/graphql", f"{ws_scheme}://{parts.netloc}{path}/graphql"


@contextmanager
def translated() -> Iterator[None]:
    """Failures of the generated client and of httpx as this package's exceptions."""
    try:
        yield
    except GraphQLClientGraphQLMultiError as exc:
        raise GraphQLError([e.original or {"message": e.message, "extensions": e.extensions or {}} for e in exc.errors]) from exc
    except GraphQLClientHttpError as exc:
        response: Any = exc.response
        body = response.json() if _is_json(response) else None
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            raise GraphQLError(errors) from exc
        raise TransportError(f"the API answered HTTP {exc.status_code}", exc.status_code) from exc
    except GraphQLClientInvalidResponseError as exc:
        raise TransportError("the API's answer was not a GraphQL response") from exc
    except httpx.HTTPError as exc:
        raise TransportError(f"the API could not be reached: {exc!r}") from exc


def _is_json(response: Any) -> bool:
    try:
        response.json()
    except ValueError:
        return False
    return True


class Connection:
    """One API: `gql` is the generated client (every operation of sdk/queries, typed), `http` the retrying httpx client
    (downloads use it too)."""

    def __init__(
        self,
        api_url: str,
        token: str | None = None,
        *,
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        progress: bool = True,
        locale: str | None = None,
    ) -> None:
        self.origin, self.graphql_url, self.ws_url = endpoints(api_url)
        self.token = token if token is not None else os.environ.get(TOKEN_VARIABLE) or None
        self.progress = progress
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        init: dict[str, Any] = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if locale:
            headers["Accept-Language"] = init["locale"] = locale
        self.transport = RetryingTransport(retry)
        self.http = httpx.AsyncClient(headers=headers, timeout=timeout, transport=self.transport)
        self.gql = GeneratedClient(
            url=self.graphql_url,
            headers=headers,
            http_client=cast(Any, self.http),  # an httpx.AsyncClient; the generated Protocol spells post() narrower
            ws_url=self.ws_url,
            ws_connection_init_payload=init or None,
        )

    async def call(self, operation: Awaitable[T]) -> T:
        """The generated client's answer, failures translated."""
        with translated():
            return await operation

    async def stream(self, subscription: AsyncIterator[T]) -> AsyncIterator[T]:
        with translated():
            async for item in subscription:
                yield item

    async def aclose(self) -> None:
        await self.http.aclose()
