"""The core query room: statements that belong to no domain (the health check's round trip)."""

from __future__ import annotations

from server.core.sql import Query

PING = Query("SELECT 1")


async def ping() -> None:
    """One round trip to PostgreSQL (pool, or the current transaction's connection)."""
    await PING.value()
