"""Per-request GraphQL context: services, the viewer (resolved once), and DataLoaders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from strawberry.dataloader import DataLoader
from strawberry.litestar.controller import BaseContext

from server.accounts import service as accounts
from server.accounts.viewer import Principal, Viewer
from server.core.client_address import UNKNOWN, client_address, trusted_proxies
from server.core.services import Services
from server.graphql.accounts import loaders as account_loaders
from server.graphql.evaluation import loaders as evaluation_loaders
from server.graphql.tasks import loaders as task_loaders
from server.graphql.training import loaders as training_loaders

# Every domain's loaders by name (`info.context.loaders.<name>`).
_LOADERS: dict[str, Callable[[], DataLoader]] = {
    **account_loaders.LOADERS,
    **task_loaders.LOADERS,
    **evaluation_loaders.LOADERS,
    **training_loaders.LOADERS,
}


class Loaders:
    """Per-request DataLoaders (`task`, `round`, `context`, `user`, `current_round`, `training_run`, ...), each
    built on first use: most requests, createExample among them, need none."""

    def __getattr__(self, name: str) -> DataLoader:
        factory = _LOADERS.get(name)
        if factory is None:
            raise AttributeError(name)
        loader = factory()
        setattr(self, name, loader)
        return loader


class GraphQLContext(BaseContext, kw_only=True, dict=True):
    services: Services
    connection_params: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.loaders = Loaders()
        self._principal_resolved = False
        self._principal: Principal | None = None
        self._viewer: Viewer | None = None
        self._client_address: str | None = None

    @property
    def over_websocket(self) -> bool:
        return self.request is None and self.websocket is not None

    def client_address(self) -> str:
        """The client's address for rate limits: the socket peer, or who a trusted proxy says it forwards."""
        if self._client_address is None:
            connection = self.request if self.request is not None else self.websocket
            if connection is None:
                return UNKNOWN
            peer = connection.client.host if connection.client else None
            forwarded = connection.headers.getall("x-forwarded-for", [])
            self._client_address = client_address(peer, forwarded, trusted_proxies(self.services.settings.trusted_proxies))
        return self._client_address

    def _authorization(self) -> str | None:
        if self.request is not None:
            return self.request.headers.get("authorization")
        params = self.connection_params or {}
        value = params.get("Authorization") or params.get("authorization") or params.get("authToken")
        if isinstance(value, str) and value and not value.lower().startswith("bearer "):
            value = f"Bearer {value}"
        return value if isinstance(value, str) else None

    async def principal(self) -> Principal | None:
        """Who is asking, from the credentials alone (a session costs no database read)."""
        if not self._principal_resolved:
            # Raises ServiceError(AUTHENTICATION_FAILED) for bad credentials: never silently anonymous.
            self._principal = await accounts.resolve_principal(self._authorization(), self.services.settings.jwt_secret)
            self._principal_resolved = True
        return self._principal

    async def viewer(self) -> Viewer | None:
        """The principal with its account facts (admin flag, owned tasks), read once per request."""
        if self._viewer is None:
            principal = await self.principal()
            if principal is None:
                return None
            self._viewer = await accounts.complete_viewer(principal)
        return self._viewer

    async def recheck_credentials(self) -> Principal | None:
        """Resolve the credentials afresh (a WebSocket lives long: before each operation, and when the account's
        credentials change); raises ServiceError(AUTHENTICATION_FAILED) once they are revoked or expired."""
        self._principal_resolved, self._principal, self._viewer = False, None, None
        self.loaders = Loaders()
        return await self.principal()

    def fresh_reads(self) -> None:
        """A subscription lives long: before it yields again, drop what its loaders cached (a model's scores, an
        example's votes), or the next message would repeat the first one's nested data."""
        self.loaders = Loaders()

    def forget_viewer(self) -> None:
        """After a mutation changes ownership, re-read the viewer on next use."""
        self._viewer = None
        if isinstance(self._principal, Viewer):  # an API token's principal carries the old account facts
            self._principal_resolved = False
