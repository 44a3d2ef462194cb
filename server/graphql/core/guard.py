"""Authorizing a resolver with a named rule of server/permissions, and counting it against its rate limits
(expected errors are mapped by `@mutation`)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from typing import Any

from strawberry.extensions import FieldExtension
from strawberry.types import Info

from server import permissions
from server.accounts.viewer import Principal, Viewer
from server.core import rate_limits
from server.core.errors import ServiceError
from server.core.rate_limits import Action, Taken
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


async def throttle(info: Info, action: Action, account: int | None = None) -> Taken:
    """Count an attempt at `action` against its limits per account and per client address (RATE_LIMITED when full)."""
    context = info.context
    services = context.services
    return await rate_limits.take(services.redis, services.settings, action, account=account, address=context.client_address())


@asynccontextmanager
async def throttled(info: Info, action: Action, account: int | None, free_if: Collection[str] = ()) -> AsyncIterator[None]:
    """`throttle`, giving the attempt back when the body fails with one of these codes (a typo is not abuse)."""
    taken = await throttle(info, action, account)
    try:
        yield
    except ServiceError as exc:
        if exc.code in free_if:
            await taken.give_back(info.context.services.redis)
        raise


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
