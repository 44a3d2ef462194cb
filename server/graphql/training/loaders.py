"""DataLoaders of training runs."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.graphql.core.loaders import by_id
from server.training import queries

LOADERS: dict[str, Callable[[], DataLoader]] = {"training_run": lambda: by_id(queries.runs_by_id)}
