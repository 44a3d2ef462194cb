"""What owners may filter a round's examples by, checked (pure: no I/O). The query room turns a checked filter into
SQL conditions (server/annotation/browse/queries.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from server.annotation.records import ExampleStatus
from server.core.errors import FieldProblem
from server.core.i18n import tr

MAX_SEARCH = 200  # characters of a full-text search
MAX_AUTHOR = 150


@dataclass(frozen=True)
class ExampleFilter:
    statuses: tuple[ExampleStatus, ...] = ()  # any of them; empty: every status
    fooled: bool | None = None
    flagged: bool | None = None  # flagged by its author or sent to the owners by validators' flags
    retracted: bool | None = None
    author: str | None = None  # a username
    context_id: int | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = None  # words to find in the annotator's fields (PostgreSQL full-text search, any language)


def problems(f: ExampleFilter) -> list[FieldProblem]:
    found = []
    if f.text is not None and (len(f.text) > MAX_SEARCH or not f.text.strip() or "\x00" in f.text):
        found.append(FieldProblem("filter.text", tr("1 to {max} characters of words to search for", max=MAX_SEARCH)))
    if f.author is not None and (not f.author.strip() or len(f.author) > MAX_AUTHOR):
        found.append(FieldProblem("filter.author", tr("a username")))
    if f.created_after and f.created_before and f.created_after >= f.created_before:
        found.append(FieldProblem("filter.createdBefore", tr("must be later than createdAfter")))
    for moment, name in ((f.created_after, "createdAfter"), (f.created_before, "createdBefore")):
        if moment is not None and moment.tzinfo is None:
            found.append(FieldProblem(f"filter.{name}", tr("a date and time with its time zone (ISO 8601)")))
    return found


def flag_queue() -> ExampleFilter:
    """The owners' review queue: flagged examples that are still in the data."""
    return ExampleFilter(flagged=True, retracted=False)
