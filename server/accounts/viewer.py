"""Who is making a request: resolved once per request from a session JWT or an API token."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.accounts.credentials import API_TOKEN_SCOPES


@dataclass(frozen=True)
class Viewer:
    user_id: int
    username: str
    is_admin: bool
    # A session has every scope; an API token only those it was created with.
    scopes: frozenset[str] = field(default_factory=lambda: frozenset(API_TOKEN_SCOPES))
    via_token: bool = False
    owned_task_ids: frozenset[int] = frozenset()

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes
