"""Error shapes of the API.

Expected failures of mutations are members of each mutation's result union (`... on InputError`).
Failures of queries that a client can cause (bad cursor, page too large, bad credentials) are
`PublicError`s that reach the client as GraphQL errors with a code; anything else is masked.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import strawberry
from graphql import GraphQLError
from strawberry import relay
from strawberry.extensions import FieldExtension
from strawberry.relay.types import GlobalIDValueError
from strawberry.types import Info

from server.core.errors import ServiceError
from server.core.i18n import localize

T = TypeVar("T")


class PublicError(Exception):
    def __init__(self, message: str, code: str = "BAD_REQUEST"):
        super().__init__(message)
        self.message = message  # a Text keeps its template for localize()
        self.code = code
        self.extensions = {"code": code}


def should_mask_error(error: GraphQLError) -> bool:
    original = error.original_error
    # Expected errors keep their message and carry their code, wherever they were raised (a subscription's
    # errors reach us without a path).
    if isinstance(original, (PublicError, ServiceError)):
        error.extensions = {**(error.extensions or {}), "code": original.code}
        error.message = localize(original.message)
        return False
    # Syntax, validation and variable-coercion errors describe the request, not our internals; they carry
    # no original exception, or point at the request's variables before execution (nodes, no path).
    if original is None or isinstance(original, (GraphQLError, GlobalIDValueError)):
        return False
    # Anything else is masked, including an exception a subscription raised while streaming (no path, no nodes).
    return error.path is not None or not error.nodes


@strawberry.type
class FieldError:
    field: str
    message: str


@strawberry.interface(description="Every expected error of a mutation implements this.")
class Error:
    code: str
    message: str


@strawberry.type(description="The input was not valid; `fields` names each offending field.")
class InputError(Error):
    fields: list[FieldError]


@strawberry.type(description="Sign in first, or the credentials sent were not valid.")
class AuthenticationError(Error):
    pass


@strawberry.type(description="The viewer may not do this.")
class PermissionError(Error):
    pass


@strawberry.type(description="A referenced object does not exist (or is not visible to the viewer).")
class NotFoundError(Error):
    pass


@strawberry.type(description="The request conflicts with existing data, e.g. a name that is taken.")
class ConflictError(Error):
    pass


@strawberry.type(description="The target model could not answer in time (sandbox mode only; saved examples wait as pending).")
class ModelUnavailableError(Error):
    pass


@strawberry.type(description="The round is closed to new examples.")
class RoundClosedError(Error):
    pass


@strawberry.type(
    description="A limit was reached (sign-ups, tasks, uploads, examples, failed log-ins); `message` says when to retry."
)
class RateLimitedError(Error):
    retry_after_seconds: int | None = strawberry.field(default=None, description="Seconds until a new attempt may succeed.")


@strawberry.type(description="The archive was refused; `message` says exactly why and how to fix it.")
class ArchiveRejectedError(Error):
    reason: str | None = strawberry.field(
        default=None,
        description="Which check refused it, a stable code for programs: LAYOUT, CONTRACT, CONFIG_LIMIT, TOO_LARGE, ...",
    )
    entry: str | None = strawberry.field(default=None, description="The offending path inside the archive, when there is one.")


@strawberry.type(description="A part of the platform this operation needs is not running; `message` says which.")
class ServiceUnavailableError(Error):
    pass


@strawberry.type(
    description="The example repeats an earlier one (the worker's own, or a validated example of the round); "
    "`message` says which and how. Nothing was stored: edit the draft and send it again."
)
class DuplicateExampleError(Error):
    repeats_example_id: strawberry.ID = strawberry.field(description="The global id of the example it repeats.")
    repeats_excerpt: str = strawberry.field(description="The start of the repeated example's text.")
    own: bool = strawberry.field(description="True when it repeats one of the viewer's own examples.")
    kind: str = strawberry.field(
        description="exact | near | semantic: how it repeats it (same text, nearly the same words, same meaning)."
    )
    similarity: float


# The one table from a service error's code to the union member a mutation answers with.
ERROR_TYPES: dict[str, type[Error]] = {
    "INVALID_INPUT": InputError,
    "AUTHENTICATION_REQUIRED": AuthenticationError,
    "AUTHENTICATION_FAILED": AuthenticationError,
    "INVALID_CREDENTIALS": AuthenticationError,
    "FORBIDDEN": PermissionError,
    "NOT_FOUND": NotFoundError,
    "CONFLICT": ConflictError,
    "QUOTA_REACHED": ConflictError,  # a campaign worker's quota (server/campaigns/work.py)
    "ALREADY_VALIDATED": ConflictError,  # the viewer's vote on that example is stored already (a retry is done)
    "MODEL_UNAVAILABLE": ModelUnavailableError,
    "ROUND_CLOSED": RoundClosedError,
    "RATE_LIMITED": RateLimitedError,
    "ARCHIVE_REJECTED": ArchiveRejectedError,
    "SERVICE_UNAVAILABLE": ServiceUnavailableError,
    "DUPLICATE_EXAMPLE": DuplicateExampleError,
}
ALL_ERROR_TYPES = tuple(dict.fromkeys([Error, *ERROR_TYPES.values()]))


def error_from_service(exc: ServiceError) -> Error:
    """The union member for an expected error; a code with no member is re-raised (and masked)."""
    error_type = ERROR_TYPES.get(exc.code)
    if error_type is None:
        raise exc
    message = localize(exc.message)  # in the reader's language (server/graphql/core/locale.py)
    if error_type is InputError:
        fields = [FieldError(field=p.field, message=localize(p.message)) for p in exc.fields]
        return InputError(code=exc.code, message=message, fields=fields)
    if error_type is RateLimitedError:
        return RateLimitedError(code=exc.code, message=message, retry_after_seconds=exc.retry_after_s)
    if error_type is DuplicateExampleError:
        details = dict(exc.details)
        details["repeats_example_id"] = strawberry.ID(relay.to_base64("Example", details["repeats_example_id"]))
        return DuplicateExampleError(code=exc.code, message=message, **details)
    if error_type is ArchiveRejectedError:
        return ArchiveRejectedError(
            code=exc.code, message=message, reason=exc.details.get("reason"), entry=exc.details.get("entry")
        )
    return error_type(code=exc.code, message=message)


async def result_of(action: Callable[[], Awaitable[T]]) -> T | Error:
    """Run one mutation body; an expected ServiceError becomes its union member (for list results)."""
    try:
        return await action()
    except ServiceError as exc:
        return error_from_service(exc)


class ExpectedErrors(FieldExtension):
    """Every mutation's wrapper: a ServiceError raised by its resolver answers as the union member
    for its code (ERROR_TYPES); anything else stays an unexpected error, masked."""

    async def resolve_async(self, next_: Callable[..., Awaitable[Any]], source: Any, info: Info, **kwargs: Any) -> Any:
        try:
            return await next_(source, info, **kwargs)
        except ServiceError as exc:
            return error_from_service(exc)


def mutation(*, description: str | None = None, **options: Any) -> Any:
    """`@mutation(...)` is `@strawberry.mutation(...)` with expected errors mapped to the result union."""
    return strawberry.mutation(description=description, extensions=[ExpectedErrors(), *options.pop("extensions", [])], **options)
