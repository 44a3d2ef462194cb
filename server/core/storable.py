"""Input the platform can store, checked where it enters a service: text, JSON documents, uploads.

PostgreSQL refuses NUL characters in text and jsonb, UTF-8 (the wire encoding of the database,
Redis and password hashing) cannot carry unpaired surrogates, and jsonb has no NaN or Infinity. JSON
requests can carry all three (`"\\u0000"`, `"\\ud800"`, Python's `NaN`), so services check them and
answer with an InputError naming the field instead of failing inside the driver.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr


def text_problem(value: str) -> str | None:
    """Why this text cannot be stored, or None."""
    if "\x00" in value:
        return tr("contains a NUL character")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return tr("is not valid Unicode (it contains an unpaired surrogate)")
    return None


def document_problem(value: Any, path: str, depth: int = 0) -> FieldProblem | None:
    """The first key or value of a JSON document that cannot be stored (as jsonb), or None."""
    if isinstance(value, str):
        text = text_problem(value)
        return FieldProblem(path, text) if text else None
    if isinstance(value, float) and not math.isfinite(value):
        return FieldProblem(path, tr("is not a finite number"))
    if depth > 32:
        return FieldProblem(path, tr("is nested too deeply"))
    if isinstance(value, Mapping):
        for key, item in value.items():
            problem = document_problem(key, path, depth + 1) or document_problem(item, f"{path}.{key}", depth + 1)
            if problem:
                return problem
    elif isinstance(value, list):
        for i, item in enumerate(value):
            problem = document_problem(item, f"{path}.{i}", depth + 1)
            if problem:
                return problem
    return None


def check_upload(upload: Any, field_name: str) -> None:
    """An Upload argument sent as a plain JSON value (not a file part of a multipart request) is refused."""
    if not callable(getattr(upload, "read", None)):
        raise invalid(
            tr("`{field}` must be a file.", field=field_name),
            FieldProblem(field_name, tr("send it as a file part of a multipart request")),
        )


def check_text(values: Mapping[str, str | None]) -> None:
    """Raise an InputError naming every field (by its GraphQL name) whose text cannot be stored."""
    problems = [
        FieldProblem(name, problem)
        for name, value in values.items()
        if isinstance(value, str) and (problem := text_problem(value))
    ]
    if problems:
        raise invalid(tr("Some text cannot be stored."), *problems)
