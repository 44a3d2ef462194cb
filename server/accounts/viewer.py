"""Who is making a request: resolved once per request from a session JWT or an API token."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.accounts.credentials import API_TOKEN_SCOPES
from server.accounts.records import TokenScope


@dataclass(frozen=True, kw_only=True)
class Principal:
    """What the credentials alone say (a session JWT needs no database read): enough for scope-only policies."""

    user_id: int
    # A session has every scope; an API token only those it was created with.
    scopes: frozenset[str] = field(default_factory=lambda: frozenset(API_TOKEN_SCOPES))
    via_token: bool = False
    expires_at: float | None = None  # a session's expiry (Unix time); an API token lasts until revoked
    epoch: int | None = None  # a session's epoch (users.session_epoch when issued); None for an API token

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes or TokenScope.ADMIN in self.scopes


@dataclass(frozen=True, kw_only=True)
class Viewer(Principal):
    """The principal plus the account facts that ownership and admin policies need (one database read)."""

    username: str
    is_admin: bool
    owned_task_ids: frozenset[int] = frozenset()
