"""Rules on a whole operation, checked once it is parsed and before it runs (a schema extension).

* Mutations are served over HTTP only: over the WebSocket they are refused ("Send mutations over HTTP").
  An HTTP request carries and checks its credentials each time; a socket's were checked when it opened
  (docs/security.md). The PWA sends only subscriptions over its socket.
* A query's or subscription's arguments (literals in the document and variables) may not hold text that
  PostgreSQL cannot store (NUL characters, unpaired surrogates: server/core/storable.py): the operation
  is refused with an INVALID_INPUT error naming the argument, where it used to reach the driver and fail
  as "Unexpected error.". Mutations answer the same problem as an `InputError` union member naming the
  field: their services check every text they store or look up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql import BREAK, GraphQLError, StringValueNode, Visitor, visit
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from server.core.i18n import localize, tr
from server.core.storable import text_problem

BAD_TEXT = "INVALID_INPUT"
NOT_OVER_WEBSOCKET = "BAD_REQUEST"


class OperationRules(SchemaExtension):
    """Pass the class (one instance per operation), after the validation cache."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        if not context.pre_execution_errors:  # an invalid document is reported as such
            error = _refusal(context)
            if error is not None:
                context.pre_execution_errors = [error]
        yield


def _refusal(execution: Any) -> GraphQLError | None:
    operation = execution.operation_type
    if operation == OperationType.MUTATION:
        if getattr(execution.context, "over_websocket", False):
            return GraphQLError(
                localize(tr("Send mutations over HTTP (POST /graphql): this WebSocket serves subscriptions and queries.")),
                extensions={"code": NOT_OVER_WEBSOCKET},
            )
        return None
    for name, value in (execution.variables or {}).items():
        if problem := _problem_in(value, f"${name}"):
            return GraphQLError(
                localize(tr("Variable `{name}` {problem}.", name=problem[0], problem=problem[1])), extensions={"code": BAD_TEXT}
            )
    query = execution.query or ""
    if "\\u" in query and execution.graphql_document is not None:  # the only way to write NUL in a literal
        finder = _BadLiteral()
        visit(execution.graphql_document, finder)
        if finder.found is not None:
            return GraphQLError(
                localize(tr("An argument {problem}.", problem=finder.found)), finder.node, extensions={"code": BAD_TEXT}
            )
    return None


def _problem_in(value: Any, path: str, depth: int = 0) -> tuple[str, str] | None:
    """(where, what) of the first text in a variable's value that cannot be stored."""
    if isinstance(value, str):
        problem = text_problem(value)
        return (path, problem) if problem else None
    if depth > 32:
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _problem_in(key, path, depth + 1) or _problem_in(item, f"{path}.{key}", depth + 1)
            if found:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = _problem_in(item, f"{path}.{i}", depth + 1)
            if found:
                return found
    return None


class _BadLiteral(Visitor):
    found: str | None = None
    node: StringValueNode | None = None

    def enter_string_value(self, node: StringValueNode, *_: Any) -> Any:
        problem = text_problem(node.value)
        if problem:
            self.found, self.node = problem, node
            return BREAK
        return None
