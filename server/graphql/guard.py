"""The two steps every mutation shares: authorize with a named policy, map expected errors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from strawberry.types import Info

from server.accounts.viewer import Principal, Viewer
from server.errors import ServiceError
from server.graphql.errors import error_from_service
from server.permissions import Denied

T = TypeVar("T")


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


def _enforce(denied: Denied | None) -> None:
    if denied is not None:
        raise ServiceError(denied.code, denied.message)


async def as_result(action: Callable[[], Awaitable[T]]) -> Any:
    """Run a mutation body; expected ServiceErrors become members of its result union."""
    try:
        return await action()
    except ServiceError as exc:
        return error_from_service(exc)
