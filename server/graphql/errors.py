"""Error shapes of the API.

Expected failures of mutations are members of each mutation's result union (`... on InputError`).
Failures of queries that a client can cause (bad cursor, page too large, bad credentials) are
`PublicError`s that reach the client as GraphQL errors with a code; anything else is masked.
"""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry.relay.types import GlobalIDValueError

from server.core.errors import ServiceError


class PublicError(Exception):
    def __init__(self, message: str, code: str = "BAD_REQUEST"):
        super().__init__(message)
        self.code = code
        self.extensions = {"code": code}


def should_mask_error(error: GraphQLError) -> bool:
    original = error.original_error
    # Expected errors keep their message and carry their code, wherever they were raised (a subscription's
    # errors reach us without a path).
    if isinstance(original, (PublicError, ServiceError)):
        error.extensions = {**(error.extensions or {}), "code": original.code}
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


@strawberry.type(description="A limit was reached (uploads per day, failed log-ins); `message` says when to retry.")
class RateLimitedError(Error):
    pass


def error_from_service(exc: ServiceError) -> Error:
    if exc.code == "INVALID_INPUT":
        return InputError(code=exc.code, message=exc.message, fields=[FieldError(field=p.field, message=p.message) for p in exc.fields])
    if exc.code in ("AUTHENTICATION_REQUIRED", "AUTHENTICATION_FAILED", "INVALID_CREDENTIALS"):
        return AuthenticationError(code=exc.code, message=exc.message)
    if exc.code == "FORBIDDEN":
        return PermissionError(code=exc.code, message=exc.message)
    if exc.code == "NOT_FOUND":
        return NotFoundError(code=exc.code, message=exc.message)
    if exc.code == "CONFLICT":
        return ConflictError(code=exc.code, message=exc.message)
    if exc.code == "MODEL_UNAVAILABLE":
        return ModelUnavailableError(code=exc.code, message=exc.message)
    if exc.code == "ROUND_CLOSED":
        return RoundClosedError(code=exc.code, message=exc.message)
    if exc.code == "RATE_LIMITED":
        return RateLimitedError(code=exc.code, message=exc.message)
    raise exc
