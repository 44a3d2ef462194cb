"""One execution and one JSON encoding of a subscription event for every watcher of it in this process.

A live feed (server/core/live_feed.py) hands the same object to all of a process's watchers of a value; graphql-core
executed each watcher's selection on it and Strawberry encoded each result, once per watcher: at 1,000 watchers of
a round, most of the process's time went into the same few fields executed and encoded 1,000 times (issue #32).

A producer that hands one object to many watchers says so (`shared(value)`, e.g. the roundStats feed; an object must
not change once shared). A selection whose result depends only on such an object is executed once per object,
document, variables and reader locale, and the watchers with the same selection share its result and its JSON. "Depends only on the event"
is decided from the schema, once per subscription: every selected field is a data field, the relay `id`, or a sync
resolver that takes no `info` (so it cannot see the viewer), with no permission classes or field extensions; object
types only (an abstract type resolves through code this cannot inspect). Anything else is executed per watcher, as
before. Who may watch at all is decided when the subscription starts and rechecked by its resolver, as before.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLObjectType,
    InlineFragmentNode,
    SelectionSetNode,
    get_named_type,
)
from graphql.pyutils import RefMap
from strawberry import relay
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from server.core.i18n import reader_locale

EVENTS_KEPT = 1024  # shared objects whose results are kept (a feed has one current value per process)
_ALLOWED_DIRECTIVES = frozenset({"include", "skip"})  # their effect depends on the variables, part of the key
_RELAY_ID = relay.Node._id.__func__  # type: ignore[attr-defined]  # the global id: the type's name and the object's id


class _Recent(OrderedDict):
    """A small LRU of objects by identity; each entry holds its object, so an id is never reused while kept."""

    def find(self, obj: Any) -> Any:
        found = self.get(id(obj))
        return found[1] if found is not None and found[0] is obj else None

    def entry(self, obj: Any, make: Any) -> Any:
        found = self.find(obj)
        if found is not None:
            return found
        value = make()
        self[id(obj)] = (obj, value)
        while len(self) > EVENTS_KEPT:
            self.popitem(last=False)
        return value


_results = _Recent()  # shared object -> {selection key: result or the task computing it}
_encoded = _Recent()  # shared result data -> its JSON


def shared(value: Any) -> Any:
    """Mark an object that is handed, unchanged, to every watcher of a feed in this process; returns it."""
    _results.entry(value, dict)
    return value


def _pure_field(field: GraphQLField) -> bool:
    definition = field.extensions.get("strawberry-definition")
    if definition is None or definition.permission_classes or definition.extensions:
        return False
    resolver = definition.base_resolver
    if resolver is None:
        return True
    wrapped = getattr(resolver.wrapped_func, "__func__", resolver.wrapped_func)
    return wrapped is _RELAY_ID or (not resolver.is_async and resolver.info_parameter is None)


def _pure_selection(parent: GraphQLObjectType, selection_set: SelectionSetNode, fragments: dict[str, Any]) -> bool:
    for selection in selection_set.selections:
        if any(d.name.value not in _ALLOWED_DIRECTIVES for d in selection.directives or ()):
            return False
        if isinstance(selection, FieldNode):
            name = selection.name.value
            if name == "__typename":
                continue
            field = parent.fields.get(name)
            if field is None or not _pure_field(field):
                return False
            if selection.selection_set is not None:
                named = get_named_type(field.type)
                if not isinstance(named, GraphQLObjectType) or not _pure_selection(named, selection.selection_set, fragments):
                    return False
        else:
            if isinstance(selection, FragmentSpreadNode):
                details = fragments.get(selection.name.value)  # graphql-core's FragmentDetails
                fragment = getattr(details, "definition", None)
            elif isinstance(selection, InlineFragmentNode):
                fragment = selection
            else:
                return False
            condition = fragment.type_condition if fragment is not None else None
            if fragment is None or (condition is not None and condition.name.value != parent.name):
                return False
            if not _pure_selection(parent, fragment.selection_set, fragments):
                return False
    return True


def shared_selection_key(executor: Any) -> tuple | None:
    """What identifies this subscription's result for an event, or None when it must be executed per watcher."""
    root = executor.schema.subscription_type
    selections = executor.operation.selection_set.selections
    if root is None or len(selections) != 1 or not isinstance(selections[0], FieldNode):
        return None
    field = root.fields.get(selections[0].name.value)
    selection_set = selections[0].selection_set
    if field is None or selection_set is None:
        return None
    named = get_named_type(field.type)
    if not isinstance(named, GraphQLObjectType) or not _pure_selection(named, selection_set, executor.fragments):
        return None
    source = executor.operation.loc.source.body if executor.operation.loc is not None else None
    if source is None:
        return None
    try:
        variables = json.dumps(executor.variable_values, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None
    # The document's text and the operation's name: the same text is the same selection, whichever watcher parsed it.
    return (source, executor.operation.name.value if executor.operation.name else None, variables)


class SharingExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, whose subscription events are executed once for every watcher with the same selection."""

    _share_key: tuple | bool | None = False  # False: not decided yet

    def build_per_event_executor(self, payload: Any) -> Any:
        if self._share_key is False:
            self._share_key = shared_selection_key(self)
        known = _results.find(payload) if self._share_key is not None else None
        if known is None:  # not a shared object, or a selection that must be executed per watcher
            return event_executor(self, payload)
        return _SharedEvent(self, payload, known, (*self._share_key, reader_locale.get()))


def event_executor(parent: StrawberryGraphQLCoreExecutionContext, payload: Any) -> Any:
    """graphql-core's executor for one event, with memos of its own. graphql-core copies the subscription's executor
    per event and the copy shares its subfield memo, keyed by the identity of lists each event makes anew and holding
    them: a subscription's memo grew by every event it ever delivered (at 200 watchers, a process's heap grew by a
    quarter a minute and each full collection stopped the event loop for 0.5 s; issue #32)."""
    executor = StrawberryGraphQLCoreExecutionContext.build_per_event_executor(parent, payload)
    executor._relevant_sub_fields = {}
    executor._stream_usages = RefMap()
    return executor


class _SharedEvent:
    """Stands in for the per-event executor: the first watcher's execution, awaited by the others."""

    def __init__(self, parent: SharingExecutionContext, payload: Any, known: dict, key: tuple) -> None:
        self.parent, self.payload, self.known, self.key = parent, payload, known, key

    def execute_operation(self, serially: bool | None = None) -> Any:
        result = self.known.get(self.key)
        if result is None:
            executor = event_executor(self.parent, self.payload)
            result = executor.execute_operation(serially)
            if self.parent.is_awaitable(result):
                result = asyncio.ensure_future(result)
                result.add_done_callback(_remember_data)
            elif result.data is not None:
                _encoded.entry(result.data, lambda: None)
            self.known[self.key] = result
        # Each watcher waits through a shield: one watcher leaving must not cancel the execution the others wait for.
        return asyncio.shield(result) if isinstance(result, asyncio.Future) else result


def _remember_data(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is None and task.result().data is not None:
        _encoded.entry(task.result().data, lambda: None)


def encoded_next(operation_id: str, data: Any, encode: Any) -> str | None:
    """The `next` message of a shared result, its data encoded once for all watchers; None for any other data."""
    if data is None or _encoded.get(id(data)) is None or _encoded[id(data)][0] is not data:
        return None
    text = _encoded[id(data)][1]
    if text is None:
        text = encode(data)
        _encoded[id(data)] = (data, text)
    return f'{{"id":{json.dumps(operation_id)},"type":"next","payload":{{"data":{text}}}}}'
