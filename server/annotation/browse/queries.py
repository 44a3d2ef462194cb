"""The query room of browsing: a round's (or a task's flag queue's) examples by filter, newest first by id (a keyset
page), one example's votes and history, and the owners' actions recorded as history.

Served by examples_round_id (round, id), examples_flag_queue (round, id) and _by_id (id) WHERE flagged, examples_user_round_id
("user", round, id) and examples_search, a GIN index of the annotator's string fields (`jsonb_to_tsvector`: no
stored column, so adding it rewrote no table). Full-text search uses the 'simple' configuration (no stemming, no
stop words): the platform's tasks are in many languages."""

from __future__ import annotations

from functools import cache
from typing import Any

from server.annotation.browse.filters import ExampleFilter
from server.core import db
from server.core.sql import Query

_EXAMPLE_JSON = ("input", "model_output")
_SCOPES = {
    "round": "e.round >= :round_id AND e.round <= :round_id",
    "task": "e.round IN (SELECT r.id FROM rounds r WHERE r.task = :task_id)",
}
# Newest first. For a round the scope is spelled as a range (round >= r AND round <= r) and ordered "round DESC, id
# DESC": the index (round, id) read backwards. With "round = r" the planner drops the constant sort key and walks the
# primary key backwards filtering on the round, expecting the round's rows to be spread evenly; for an old round that
# read every newer example first (600,000 rows at scale, tests/scale/test_query_plans.py).
_ORDER = {"round": "ORDER BY e.round DESC, e.id DESC", "task": "ORDER BY e.id DESC"}
_CONDITIONS = {
    "statuses": "e.status = ANY(:statuses::text[])",
    "fooled": "e.fooled IS NOT DISTINCT FROM :fooled",
    "flagged": "(e.flagged OR e.status = 'flagged')",
    "not_flagged": "NOT (e.flagged OR e.status = 'flagged')",
    "retracted": "e.retracted = :retracted",
    "author": 'e."user" = (SELECT u.id FROM users u WHERE u.username = :author)',
    "context_id": "e.context = :context_id",
    "created_after": "e.created_at >= :created_after",
    "created_before": "e.created_at < :created_before",
    "text": "jsonb_to_tsvector('simple', e.input, '[\"string\"]') @@ websearch_to_tsquery('simple', :text)",
}


@cache
def browse_statement(scope: str, conditions: frozenset[str]) -> Query:
    where = [_SCOPES[scope], "e.id <= :below", *(_CONDITIONS[name] for name in sorted(conditions))]
    return Query(f"SELECT e.* FROM examples e WHERE {' AND '.join(where)} {_ORDER[scope]} LIMIT :limit", json=_EXAMPLE_JSON)


def _conditions(f: ExampleFilter) -> tuple[frozenset[str], dict[str, Any]]:
    """The conditions `f` sets, and their values."""
    names: set[str] = set()
    values: dict[str, Any] = {}
    if f.statuses:
        names.add("statuses")
        values["statuses"] = [s.value for s in f.statuses]
    if f.flagged is not None:
        names.add("flagged" if f.flagged else "not_flagged")
    for name in ("fooled", "retracted", "author", "context_id", "created_after", "created_before", "text"):
        value = getattr(f, name)
        if value is not None:
            names.add(name)
            values[name] = value
    return frozenset(names), values


# A search is planned for its words: how many rows a word matches decides between reading the round newest first and
# the GIN index, and a generic plan (which a prepared statement switches to after five runs) cannot know it.
CUSTOM_PLANS = Query("SET LOCAL plan_cache_mode = force_custom_plan")


async def browse(scope: str, scope_id: int, f: ExampleFilter, below: int, limit: int) -> list[dict[str, Any]]:
    """Examples of the round (scope "round") or the task ("task") matching `f` with id ≤ below, newest first."""
    names, values = _conditions(f)
    scope_key = "round_id" if scope == "round" else "task_id"
    statement = browse_statement(scope, names)
    arguments = {**values, scope_key: scope_id, "below": below, "limit": limit}
    if "text" not in names:
        return await statement.rows(**arguments)
    async with db.transaction():
        await CUSTOM_PLANS.execute()
        return await statement.rows(**arguments)


VOTES = Query("""
SELECT v.label, v.mode, v.note, v.fields, v.created_at, u.username FROM validations v JOIN users u ON u.id = v."user"
WHERE v.example = :example ORDER BY v.created_at, v.id
""")
EVENTS = Query("""
SELECT ev.action, ev.note, ev.created_at, u.username FROM example_events ev LEFT JOIN users u ON u.id = ev.actor
WHERE ev.example = :example ORDER BY ev.id
""")
RECORD_EVENT = Query("INSERT INTO example_events (example, actor, action, note) VALUES (:example, :actor, :action, :note)")
RESOLVE_FLAG = Query("UPDATE examples SET flagged = false WHERE id = :example AND flagged RETURNING id")
GOLD_ANSWER = Query("SELECT answer FROM gold_items WHERE example = :example")


async def votes(example_id: int) -> list[dict[str, Any]]:
    return await VOTES.rows(example=example_id)


async def history(example_id: int) -> list[dict[str, Any]]:
    return await EVENTS.rows(example=example_id)


async def record_event(example_id: int, actor: int, action: str, note: str) -> None:
    await RECORD_EVENT.execute(example=example_id, actor=actor, action=action, note=note)


async def resolve_flag(example_id: int) -> bool:
    return await RESOLVE_FLAG.value(example=example_id) is not None


async def gold_answer(example_id: int) -> str | None:
    return await GOLD_ANSWER.value(example=example_id)
