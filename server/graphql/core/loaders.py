"""DataLoaders by primary key, built per request (a loader caches for one request only)."""

from __future__ import annotations

import functools

from piccolo.table import Table
from strawberry.dataloader import DataLoader


def rows_by_id(table: type[Table]) -> DataLoader[int, dict | None]:
    columns = _public_columns(table)

    async def load(ids: list[int]) -> list[dict | None]:
        rows = await table.select(*columns).where(table._meta.primary_key.is_in(list(ids))).output(load_json=True)
        by_id = {row["id"]: row for row in rows}
        return [by_id.get(i) for i in ids]

    return DataLoader(load_fn=load)


@functools.cache
def _public_columns(table: type[Table]) -> list:
    return table.all_columns(exclude=[c for c in table._meta.columns if c._meta.secret])
