"""A Strawberry extension that times every GraphQL operation and counts its errors.

Cheap by design (createExample's latency is benchmarked against raw Triton): it only implements
`on_operation`, reads the document Strawberry already parsed (and cached), and observes a
pre-bound histogram child found in a dict.

The `operation` label: a named operation whose name is a schema root field (`createExample`, or
`CreateExample` as the PWA writes it) or one of our clients' operation names keeps that name;
any other operation is labelled by its top-level field (`tasks`), `multiple` for several fields,
`unknown` if it did not parse. So a client choosing operation names cannot add series; the set of
values is bounded by the schema (and capped as a second guard).
"""

from __future__ import annotations

import time
from typing import Any

import strawberry
from graphql import FieldNode, GraphQLError, OperationDefinitionNode
from strawberry.extensions import SchemaExtension

from server.observability.metrics import (
    GRAPHQL_DURATION,
    GRAPHQL_SUBSCRIPTION_DURATION,
    OTHER,
    BoundedValues,
    count_graphql_error,
)

# Operation names our own clients send that are not a root field's name (pwa/src).
CLIENT_OPERATIONS = frozenset(
    {
        "TaskDetail",
        "OwnerTasks",
        "ModelNode",
        "ExampleNode",
        "MyModels",
        "IntrospectionQuery",
    }
)
INTROSPECTION_FIELDS = frozenset({"__typename", "__schema", "__type"})
UNKNOWN = "unknown"
MULTIPLE = "multiple"


class OperationNames:
    """Maps a parsed operation to its bounded label."""

    def __init__(self, root_fields: dict[str, set[str]], cap: int = 500) -> None:
        self.fields = {kind: frozenset(names) | INTROSPECTION_FIELDS for kind, names in root_fields.items()}
        self.known: dict[str, str] = {name: name for name in CLIENT_OPERATIONS}
        for names in root_fields.values():
            for name in names:
                self.known[name] = name
                self.known[name[:1].upper() + name[1:]] = name
        self.bounded = BoundedValues(cap)

    def label(self, definition: OperationDefinitionNode) -> str:
        name = definition.name.value if definition.name else None
        if name is not None and name in self.known:
            return self.known[name]
        allowed = self.fields.get(definition.operation.value, INTROSPECTION_FIELDS)
        found = None
        for selection in definition.selection_set.selections:
            if not isinstance(selection, FieldNode):
                return MULTIPLE  # a fragment at the top level: not worth resolving here
            field = selection.name.value
            if field not in allowed:
                return UNKNOWN
            if found is None:
                found = field
            elif field != found:
                return MULTIPLE
        return self.bounded(found) if found is not None else UNKNOWN


def _operation(document: Any, name: str | None) -> OperationDefinitionNode | None:
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode) and (
            name is None or (definition.name and definition.name.value == name)
        ):
            return definition
    return None


def error_code(error: GraphQLError, parsed: bool) -> str:
    """A bounded code per error: the PublicError/ServiceError code, else the kind of failure."""
    original = error.original_error
    if original is None or isinstance(original, GraphQLError) or error.path is None:
        code = (error.extensions or {}).get("code")
        if isinstance(code, str):
            return code
        return "GRAPHQL_VALIDATION_FAILED" if parsed else "GRAPHQL_PARSE_FAILED"
    code = getattr(original, "code", None)
    if isinstance(code, str):
        return code
    if type(original).__name__ == "GlobalIDValueError":
        return "BAD_GLOBAL_ID"
    return "INTERNAL"


def metrics_extension(schema: strawberry.Schema) -> type[SchemaExtension]:
    """The extension class for `schema` (root field names are read once from it)."""
    core = schema._schema
    roots = {"query": core.query_type, "mutation": core.mutation_type, "subscription": core.subscription_type}
    names = OperationNames({kind: set(t.fields) for kind, t in roots.items() if t is not None})
    children: dict[tuple[str, str], Any] = {}
    perf_counter = time.perf_counter

    def child(kind: str, label: str):
        found = children.get((kind, label))
        if found is None:
            if kind == "subscription":
                found = GRAPHQL_SUBSCRIPTION_DURATION.labels(label)
            else:
                found = GRAPHQL_DURATION.labels(kind if kind in ("query", "mutation") else UNKNOWN, label)
            children[(kind, label)] = found
        return found

    class GraphQLMetrics(SchemaExtension):
        def on_operation(self):
            started = perf_counter()
            try:
                yield
            finally:
                context = self.execution_context
                document = context.graphql_document
                definition = _operation(document, context.operation_name) if document is not None else None
                if definition is None:
                    kind, label = UNKNOWN, UNKNOWN
                else:
                    kind, label = definition.operation.value, names.label(definition)
                child(kind, label if label else OTHER).observe(perf_counter() - started)
                errors = context.pre_execution_errors
                if errors:
                    for error in errors:
                        count_graphql_error(error_code(error, document is not None))

    return GraphQLMetrics


def install(schema: strawberry.Schema) -> None:
    """Adds the metrics extension to a built schema (once; the schema object is cached per settings)."""
    if any(getattr(ext, "__name__", "") == "GraphQLMetrics" for ext in schema.extensions):
        return
    schema.extensions = (*schema.extensions, metrics_extension(schema))
