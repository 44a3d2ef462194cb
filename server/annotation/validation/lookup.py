"""Examples as they are now, for the answers of mutations that changed one (a vote, gold marked or uploaded): the
annotation domain's reads for its GraphQL layer, so that a mutation calls services only."""

from __future__ import annotations

from server.annotation.records import ExampleRow
from server.annotation.validation import queries


async def example(example_id: int) -> ExampleRow | None:
    return await queries.example_by_id(example_id)


async def examples_in_order(example_ids: list[int]) -> list[ExampleRow]:
    """The examples with these ids, in this order (ids with no example are left out)."""
    by_id = {row["id"]: row for row in await queries.examples_by_ids(example_ids)}
    return [by_id[i] for i in example_ids if i in by_id]
