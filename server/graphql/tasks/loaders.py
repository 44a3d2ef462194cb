"""DataLoaders of tasks, rounds and contexts."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.graphql.core.loaders import rows_by_id
from server.tasks.tables import Context, Round, Task


def _current_round_by_task() -> DataLoader[int, dict | None]:
    async def load(task_ids: list[int]) -> list[dict | None]:
        rows = await Round.raw(
            "SELECT r.* FROM rounds r JOIN tasks t ON t.id = r.task AND r.number = t.current_round "
            "WHERE t.id = ANY({})",
            list(task_ids),
        )
        by_task = {row["task"]: row for row in rows}
        return [by_task.get(i) for i in task_ids]

    return DataLoader(load_fn=load)


LOADERS: dict[str, Callable[[], DataLoader]] = {
    "task": lambda: rows_by_id(Task),
    "round": lambda: rows_by_id(Round),
    "context": lambda: rows_by_id(Context),
    "current_round": _current_round_by_task,
}
