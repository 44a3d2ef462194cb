"""DataLoaders by primary key, built per request (a loader caches for one request only).

A domain's loaders module binds `by_id` to a function of its query room that reads many rows by id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from strawberry.dataloader import DataLoader

R = TypeVar("R")


def by_id(fetch: Callable[[list[int]], Awaitable[Sequence[R]]], key: str = "id") -> DataLoader[int, R | None]:
    """One read for every id asked in the same tick; a missing id loads as None."""

    async def load(ids: list[int]) -> list[R | None]:
        rows: Sequence[Any] = await fetch(list(ids))
        found = {row[key]: row for row in rows}
        return [found.get(i) for i in ids]

    return DataLoader(load_fn=load)
