"""Relay helpers: opaque cursors, capped page sizes, keyset pages, typed global ids."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from strawberry import relay

from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.graphql.core.errors import PublicError

N = TypeVar("N")
CURSOR_PREFIX = "cursor:"


def encode_cursor(key: int) -> str:
    return base64.urlsafe_b64encode(f"{CURSOR_PREFIX}{key}".encode()).decode()


def decode_cursor(cursor: str | None) -> int | None:
    if cursor is None:
        return None
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        if not text.startswith(CURSOR_PREFIX):
            raise ValueError
        key = int(text[len(CURSOR_PREFIX) :])
        if not 0 <= key <= 2**31 - 1:
            raise ValueError
        return key
    except (ValueError, UnicodeError):
        raise PublicError(tr("`after` is not a cursor this API issued."), "BAD_CURSOR") from None


def check_page_size(first: int, maximum: int) -> int:
    if not 1 <= first <= maximum:
        raise PublicError(tr("`first` must be between 1 and {maximum}.", maximum=maximum), "PAGE_SIZE")
    return first


def build_connection(rows: Sequence[dict], first: int, after: int | None, to_node: Callable[[dict], N]) -> relay.Connection[N]:
    """`rows` were fetched with LIMIT first + 1, ordered by id, after `after`."""
    page = list(rows[:first])
    edges = [relay.Edge(cursor=encode_cursor(row["id"]), node=to_node(row)) for row in page]
    return relay.Connection(
        edges=edges,
        page_info=relay.PageInfo(
            has_next_page=len(rows) > first,
            has_previous_page=after is not None,
            start_cursor=edges[0].cursor if edges else None,
            end_cursor=edges[-1].cursor if edges else None,
        ),
    )


def node_pk(global_id: Any, type_name: str, field_name: str) -> int:
    """The integer primary key of a global id of the expected type, else an InputError naming the field."""
    try:
        if isinstance(global_id, str):
            global_id = relay.GlobalID.from_id(global_id)
        pk = int(global_id.node_id)
        if global_id.type_name != type_name or not 0 < pk <= 2**31 - 1:
            raise ValueError
        return pk
    except Exception:  # noqa: BLE001 — any malformed id is the client's input problem
        raise invalid(
            tr("`{field}` is not a {type} id.", field=field_name, type=type_name),
            FieldProblem(field_name, tr("not a {type} id", type=type_name)),
        ) from None


PK_MAX = 2**31 - 1  # Piccolo's Serial is a PostgreSQL integer


def parse_pk(value: object) -> int | None:
    try:
        pk = int(str(value))
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk <= PK_MAX else None


def int_ids(node_ids: Iterable[str]) -> list[int | None]:
    return [parse_pk(node_id) for node_id in node_ids]


async def load_nodes(loader, node_ids, to_node):
    ids = int_ids(node_ids)
    rows = await loader.load_many([i for i in ids if i is not None])
    by_id = {row["id"]: row for row in rows if row}
    return [to_node(by_id[i]) if i in by_id else None for i in ids]
