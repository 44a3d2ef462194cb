"""Walking every page of a list: every list of the API is a Relay connection (`edges`, `pageInfo`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from .errors import DynabenchError

T = TypeVar("T")
PAGE_SIZE = 100  # the API's cap on `first`
Page = tuple[Sequence[T], bool, str | None]  # (items, has next page, end cursor)


class _PageInfo(Protocol):
    @property
    def has_next_page(self) -> bool: ...
    @property
    def end_cursor(self) -> str | None: ...


def connection_page(connection: Any) -> Page[Any]:
    """A Relay connection's nodes and where the next page starts."""
    info: _PageInfo = connection.page_info
    return [edge.node for edge in connection.edges], info.has_next_page, info.end_cursor


async def walk(fetch: Callable[[str | None], Awaitable[Page[T]]]) -> AsyncIterator[T]:
    """Every item of every page: `fetch(after)` answers a page (`after` is None for the first)."""
    after: str | None = None
    while True:
        items, has_next, end = await fetch(after)
        for item in items:
            yield item
        if not has_next or end is None:
            return
        if end == after:
            raise DynabenchError(f"the API answered the same cursor twice ({end!r}): paging stopped")
        after = end
