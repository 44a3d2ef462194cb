"""DataLoaders of tasks, rounds and contexts."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.graphql.core.loaders import by_id
from server.tasks import queries

LOADERS: dict[str, Callable[[], DataLoader]] = {
    "task": lambda: by_id(queries.tasks_by_id),
    "round": lambda: by_id(queries.rounds_by_id),
    "context": lambda: by_id(queries.contexts_by_id),
    # The current round of a task, by the task's id.
    "current_round": lambda: by_id(queries.current_rounds, key="task"),
    # The open rounds a submission judges, by the model's id.
    "rounds_judged_by": lambda: by_id(queries.rounds_judged_by, key="model_id"),
}
