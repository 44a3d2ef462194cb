"""Authorizing a resolver with a named rule of server/permissions (expected errors are mapped by `@mutation`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from strawberry.extensions import FieldExtension
from strawberry.types import Info

from server import permissions
from server.accounts.viewer import Principal, Viewer
from server.core.errors import ServiceError
from server.permissions import Denied


async def authorize(info: Info, policy: Callable[..., Denied | None], *args: Any) -> Viewer | None:
    viewer = await info.context.viewer()
    _enforce(policy(viewer, *args))
    return viewer


async def authorize_principal(info: Info, policy: Callable[[Principal | None], Denied | None]) -> Principal | None:
    """For scope-only policies (e.g. `annotate`, `read_public`) whose resolver needs at most the user id:
    no account read for a session."""
    principal = await info.context.principal()
    _enforce(policy(principal))
    return principal


class ReadScope(FieldExtension):
    """The `read_public` policy on a field whose resolver is not ours (relay's `node`). A FieldExtension, not a
    permission class: Strawberry's PermissionExtension returns relay's awaitable unresolved."""

    async def resolve_async(self, next_: Callable[..., Any], source: Any, info: Info, **kwargs: Any) -> Any:
        await authorize_principal(info, permissions.read_public)  # raises the refusal with its code
        result = next_(source, info, **kwargs)
        while inspect.isawaitable(result):  # relay's node resolver hands back an awaitable of an awaitable
            result = await result
        return result


def _enforce(denied: Denied | None) -> None:
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
