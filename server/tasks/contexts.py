"""Choosing the next context for an annotator, and carrying a round's contexts into the next round."""

from __future__ import annotations

from server.core.errors import ServiceError
from server.core.i18n import tr
from server.tasks import queries
from server.tasks.records import ContextRow, ContextStrategy


async def next_context(round_id: int, strategy: ContextStrategy | str) -> ContextRow:
    row = await queries.pick_context(round_id, strategy)  # one statement; picks of a round are serialized in it
    if row is None:
        raise ServiceError("NOT_FOUND", tr("This round has no contexts yet."))
    return row


async def copy_contexts(from_round_id: int, to_round_id: int) -> None:
    """The new round starts with the previous round's contexts, their counters reset (a retrained target's round)."""
    await queries.copy_contexts(from_round_id, to_round_id)
