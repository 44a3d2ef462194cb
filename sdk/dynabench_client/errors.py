"""Exceptions: one class per expected error of the API (the `Error` members of mutation results), a common base.

A mutation answers `Success | Error` unions; `raise_for_result` turns an error member into its exception, carrying the
union's `code`, `message` and the type's own fields (`InputError.fields`, `RateLimitedError.retry_after_seconds`, ...).
Programs decide on the class or on `code`, never on `message` (it is translated).
"""

from __future__ import annotations

from typing import Any, TypeVar


class DynabenchError(Exception):
    """Every error this client raises."""


class TransportError(DynabenchError):
    """The API could not be reached, or kept answering 429/5xx after every retry."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class GraphQLError(DynabenchError):
    """The API refused the operation itself (a query's `errors`: bad credentials, limits, an unknown id)."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        self.errors = errors
        self.codes = [str((e.get("extensions") or {}).get("code", "")) for e in errors]
        super().__init__("; ".join(str(e.get("message", e)) for e in errors))


class ApiError(DynabenchError):
    """An expected error member of a mutation's result union (`... on Error { code message }`)."""

    typename = "Error"

    def __init__(self, code: str, message: str, **fields: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.fields = code, message, fields

    def __getattr__(self, name: str) -> Any:
        # The type's own fields (InputError.fields is spelled `field_errors`), as attributes.
        fields = self.__dict__.get("fields")
        if fields is not None and name in fields:
            return fields[name]
        raise AttributeError(name)


class InputError(ApiError):
    typename = "InputError"

    @property
    def field_errors(self) -> dict[str, str]:
        """{input field (e.g. `config.labels`): what is wrong with it}."""
        return {item["field"]: item["message"] for item in self.fields.get("fields") or []}

    def __str__(self) -> str:
        details = "; ".join(f"{field}: {message}" for field, message in self.field_errors.items())
        return f"{super().__str__()} ({details})" if details else super().__str__()


class AuthenticationError(ApiError):
    typename = "AuthenticationError"


class PermissionDeniedError(ApiError):
    typename = "PermissionError"


class NotFoundError(ApiError):
    typename = "NotFoundError"


class ConflictError(ApiError):
    typename = "ConflictError"


class DuplicateExampleError(ApiError):
    typename = "DuplicateExampleError"


class ModelUnavailableError(ApiError):
    typename = "ModelUnavailableError"


class RoundClosedError(ApiError):
    typename = "RoundClosedError"


class RateLimitedError(ApiError):
    typename = "RateLimitedError"


class ArchiveRejectedError(ApiError):
    typename = "ArchiveRejectedError"


class ServiceUnavailableError(ApiError):
    typename = "ServiceUnavailableError"


class ModelFailedError(DynabenchError):
    """A submitted model ended in `failed` (its status log says why)."""

    def __init__(self, model_id: str, message: str) -> None:
        super().__init__(f"model {model_id} failed: {message}")
        self.model_id, self.message = model_id, message


ERRORS: dict[str, type[ApiError]] = {
    cls.typename: cls
    for cls in (
        InputError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        DuplicateExampleError,
        ModelUnavailableError,
        RoundClosedError,
        RateLimitedError,
        ArchiveRejectedError,
        ServiceUnavailableError,
    )
}

T = TypeVar("T")


def error_of(result: Any) -> ApiError | None:
    """The exception for a result union's error member (an unknown `Error` type becomes a plain ApiError); None for a
    success member."""
    typename = getattr(result, "typename__", None)
    code = getattr(result, "code", None)
    if typename is None or code is None or not isinstance(code, str):
        return None
    values = result.model_dump()
    values.pop("typename__", None)
    values.pop("code", None)
    message = values.pop("message", "")
    return ERRORS.get(typename, ApiError)(code, message, **values)


def raise_for_result(result: T) -> T:
    """`result` itself when it is a success member; raises its exception when it is an error member."""
    error = error_of(result)
    if error is not None:
        raise error
    return result
