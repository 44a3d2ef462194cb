"""The near-duplicate guard at submission (docs/design.md §4.1): a new example that repeats one of the worker's
earlier examples of the task, or one of the round's validated examples, is refused with DUPLICATE_EXAMPLE naming the
example it repeats. The comparison is server/crowd/duplicates.py (normalized text, word n-gram Jaccard) on the
annotator-written input fields; the task config's `duplicates` section turns it on and sets the thresholds.
Each side of the comparison is capped at the newest MAX_EARLIER examples, so a check costs a bounded read."""

from __future__ import annotations

import uuid
from typing import Any

from server.annotation.quality import queries
from server.core.errors import ServiceError
from server.crowd.duplicates import DuplicateIndex, Earlier, Source, Thresholds
from server.tasks.config import TaskConfig

MAX_EARLIER = 5000
EXCERPT = 80


def example_text(config: TaskConfig, stored_input: dict[str, Any]) -> str:
    """What the annotator wrote: the task's input fields, in config order."""
    return "\n".join(str(stored_input.get(spec.name) or "") for spec in config.input_fields)


def excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= EXCERPT else flat[: EXCERPT - 1].rstrip() + "…"


async def refuse_duplicate(
    config: TaskConfig, task_id: int, round_id: int, user_id: int, client_id: uuid.UUID | None, stored_input: dict
) -> None:
    """Raise DUPLICATE_EXAMPLE (and count the refusal for the task's owners) when the new example repeats one."""
    settings = config.duplicates
    if not settings.enabled:
        return
    rows = await queries.earlier_examples(task_id, round_id, user_id, client_id, MAX_EARLIER)
    if not rows:
        return
    texts = {row["id"]: example_text(config, row["input"] or {}) for row in rows}
    earlier = [Earlier(row["id"], texts[row["id"]], Source.OWN if row["own"] else Source.ROUND) for row in rows]
    index = DuplicateIndex(earlier, Thresholds(jaccard=settings.jaccard, cosine=None, ngram=settings.ngram))
    match = index.check(example_text(config, stored_input))
    if match is None:
        return
    if client_id is not None:
        await queries.record_refusal(client_id, task_id, user_id, match.earlier_id, match.kind.value)
    raise ServiceError(
        "DUPLICATE_EXAMPLE",
        match.message(),
        details={
            "repeats_example_id": match.earlier_id,
            "repeats_excerpt": excerpt(texts[match.earlier_id]),
            "own": match.source is Source.OWN,
            "kind": match.kind.value,
            "similarity": round(match.score, 4),
        },
    )
