"""DataLoaders of accounts."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.accounts import queries
from server.graphql.core.loaders import by_id

LOADERS: dict[str, Callable[[], DataLoader]] = {"user": lambda: by_id(queries.users_by_id)}
