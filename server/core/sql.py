"""The one way to run hand-written SQL: named statements with `:name` placeholders, compiled once to
asyncpg's `$1, $2…` and run on the current transaction's connection (a service's
`async with db.transaction()`), else on the pool, else (scripts) on a one-off connection.

Each domain keeps its statements in its own query room (`server/<domain>/queries.py`); nothing else
holds SQL text. `json=` names the columns whose jsonb/json values come back decoded. `stream` reads a long
result (an export) through a server-side cursor on a connection of its own.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import asyncpg
from piccolo.engine import engine_finder

from server.core.jsonutil import from_json

# `:name` but not a `::type` cast, nor a colon inside a quoted string literal (no literal here holds one).
_PLACEHOLDER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def compile_named(text: str) -> tuple[str, tuple[str, ...]]:
    """`:name` → `$n`; every use of a name shares its number."""
    names: list[str] = []

    def place(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PLACEHOLDER.sub(place, text), tuple(names)


class Query:
    """One statement. `await q.rows(a=1)` → list of dicts; `.row`, `.value`, `.execute` likewise."""

    __slots__ = ("json", "names", "sql", "text")

    def __init__(self, text: str, *, json: Iterable[str] = ()) -> None:
        self.text = text
        self.sql, self.names = compile_named(text)
        self.json = frozenset(json)

    def arguments(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        try:
            return tuple(values[name] for name in self.names)
        except KeyError as exc:  # checked only on failure: this runs on every statement of the hot path
            raise TypeError(f"missing SQL argument: {exc.args[0]}") from None

    def _decode(self, record: asyncpg.Record) -> dict[str, Any]:
        row = dict(record)
        for key in self.json:
            if key in row:
                row[key] = from_json(row[key])
        return row

    async def records(self, **values: Any) -> list[asyncpg.Record]:
        return await _run("fetch", self.sql, self.arguments(values))

    async def rows(self, **values: Any) -> list[dict[str, Any]]:
        return [self._decode(record) for record in await self.records(**values)]

    async def row(self, **values: Any) -> dict[str, Any] | None:
        records = await self.records(**values)
        return self._decode(records[0]) if records else None

    async def value(self, **values: Any) -> Any:
        return await _run("fetchval", self.sql, self.arguments(values))

    async def execute(self, **values: Any) -> str:
        return await _run("execute", self.sql, self.arguments(values))

    async def stream(self, *, batch: int = 500, **values: Any) -> AsyncIterator[dict[str, Any]]:
        """Rows one by one through a server-side cursor that fetches `batch` at a time, in a read-only
        transaction on a connection of its own: a download may last minutes and must not hold a pool
        connection (nor see a half-done transaction of the caller). Close it early with
        `contextlib.aclosing` so that the connection goes at once."""
        from server.core.db import database_url

        arguments = self.arguments(values)
        connection = await asyncpg.connect(database_url())
        try:
            async with connection.transaction(readonly=True):
                async for record in connection.cursor(self.sql, *arguments, prefetch=batch):
                    yield self._decode(record)
        finally:
            await connection.close()


async def _run(method: str, sql: str, arguments: tuple[Any, ...]) -> Any:
    engine = engine_finder()
    transaction = engine.current_transaction.get() if engine is not None else None
    if transaction is not None:
        return await getattr(transaction.connection, method)(sql, *arguments)
    if engine is not None and engine.pool is not None:
        async with engine.pool.acquire() as connection:
            return await getattr(connection, method)(sql, *arguments)
    # Scripts and one-off commands: no pool, as Piccolo does then.
    from server.core.db import database_url

    connection = await asyncpg.connect(database_url())
    try:
        return await getattr(connection, method)(sql, *arguments)
    finally:
        await connection.close()
