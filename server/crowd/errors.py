"""The one exception of the crowd core: a campaign setting that cannot work (a service maps it to INVALID_INPUT)."""

from __future__ import annotations


class ConfigError(ValueError):
    """A bad campaign setting: `field` names it (as the GraphQL input does), the message says what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
