"""DataLoaders of accounts."""

from __future__ import annotations

from collections.abc import Callable

from strawberry.dataloader import DataLoader

from server.accounts.tables import User
from server.graphql.core.loaders import rows_by_id

LOADERS: dict[str, Callable[[], DataLoader]] = {"user": lambda: rows_by_id(User)}
