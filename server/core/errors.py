"""Expected errors raised by services; the GraphQL layer turns them into typed union results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.core.i18n import tr


@dataclass(frozen=True)
class FieldProblem:
    field: str
    message: str


@dataclass
class ServiceError(Exception):
    code: str  # INVALID_INPUT | NOT_FOUND | CONFLICT | FORBIDDEN | AUTHENTICATION_REQUIRED | RATE_LIMITED | ...
    message: str
    fields: list[FieldProblem] = field(default_factory=list)
    retry_after_s: int | None = None  # RATE_LIMITED: whole seconds until the client may try again
    details: dict[str, Any] = field(default_factory=dict)  # extra fields of the error's GraphQL type (e.g. DUPLICATE_EXAMPLE)

    def __str__(self) -> str:
        return self.message


class ConfigError(ValueError):
    """A setting that cannot work, raised by the pure rules of campaigns (server/campaigns/) and of crowd quality
    (server/annotation/quality/): `field` names it (as the GraphQL input does), the message says what is allowed; a
    service maps it to INVALID_INPUT."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def invalid(message: str, *problems: FieldProblem) -> ServiceError:
    return ServiceError("INVALID_INPUT", message, list(problems))


def not_found(what: str) -> ServiceError:
    return ServiceError("NOT_FOUND", tr("{what} does not exist.", what=what))


def rate_limited(message: str, retry_after_s: int) -> ServiceError:
    return ServiceError("RATE_LIMITED", message, retry_after_s=max(1, retry_after_s))


def conflict(message: str, field_name: str | None = None) -> ServiceError:
    return ServiceError("CONFLICT", message, [FieldProblem(field_name, message)] if field_name else [])
