"""The near-duplicate guard at submission (docs/design.md §4.1): a new example that repeats one of the worker's
earlier examples of the task, or one of the round's validated examples, is refused with DUPLICATE_EXAMPLE naming the
example it repeats. The comparison is duplicate_rules.py on the annotator-written input fields: normalized
text, word n-gram Jaccard, and the cosine of the vectors the round's target model gives (its optional `embedding`
output, triton_models/README.md). The task config's `duplicates` section turns it on and sets the thresholds.

Vectors: a stored example keeps the vector its target gave (example_vectors, by encoder: "<model>@<version>"), and a
new one is compared by meaning only with earlier examples whose vector came from the same encoder: after a retrained
round's new target version, or for an example judged later because the model was down, the text tests still hold.
Each side of the comparison is capped at the newest MAX_EARLIER examples, so a check costs a bounded read."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from server.annotation.quality import queries
from server.annotation.quality.duplicate_rules import DuplicateIndex, DuplicateMatch, Earlier, Source, Thresholds
from server.core.errors import ServiceError
from server.core.inference import Prediction
from server.tasks.config import TaskConfig
from server.tasks.form_fields import TEXT_TYPES

VECTOR_DTYPE = np.dtype("<f2")  # stored as float16: 768 bytes for 384 dimensions, ample for a 0.98 threshold

MAX_EARLIER = 5000
EXCERPT = 80


def example_text(config: TaskConfig, stored_input: dict[str, Any]) -> str:
    """What the annotator wrote: the task's text input fields asked with the example, in config order (not choices,
    numbers or the answers given after the verdict, which many examples share)."""
    texts = [spec.name for spec in config.input_fields if spec.type in TEXT_TYPES and spec.show_when == "always"]
    return "\n".join(str(stored_input.get(name) or "") for name in texts)


def excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= EXCERPT else flat[: EXCERPT - 1].rstrip() + "…"


def vector_of(config: TaskConfig, predictions: Sequence[Prediction]) -> Prediction | None:
    """The prediction whose embedding the semantic test uses (the first target that gave one), if it is on."""
    if not config.duplicates.wants_vectors:
        return None
    return next((p for p in predictions if p.embedding is not None), None)


@dataclass(frozen=True)
class Repeat:
    """What a refused submission repeats."""

    match: DuplicateMatch
    text: str  # the repeated example's text


async def find_repeat(
    config: TaskConfig,
    task_id: int,
    round_id: int,
    user_id: int,
    client_id: uuid.UUID | None,
    stored_input: dict,
    predictions: Sequence[Prediction] = (),
) -> Repeat | None:
    """The earlier example the new one repeats, if any. Call in the transaction that stores the example: it first
    takes the author's lock, so two submissions of one author at once are checked one after the other (the second
    sees the first once it is stored) and cannot both pass."""
    settings = config.duplicates
    if not settings.enabled:
        return None
    await queries.lock_author(user_id)
    judged = vector_of(config, predictions)
    rows = await queries.earlier_examples(task_id, round_id, user_id, client_id, MAX_EARLIER, judged.encoder if judged else None)
    if not rows:
        return None
    vector = judged.embedding if judged else None
    texts = {row["id"]: example_text(config, row["input"] or {}) for row in rows}
    earlier = [
        Earlier(row["id"], texts[row["id"]], Source.OWN if row["own"] else Source.ROUND, _comparable(row["vector"], vector))
        for row in rows
    ]
    thresholds = Thresholds(jaccard=settings.jaccard, cosine=settings.cosine, ngram=settings.ngram)
    match = DuplicateIndex(earlier, thresholds).check(example_text(config, stored_input), vector)
    return Repeat(match, texts[match.earlier_id]) if match is not None else None


async def refuse(repeat: Repeat, task_id: int, user_id: int, client_id: uuid.UUID | None) -> NoReturn:
    """Raise DUPLICATE_EXAMPLE, after counting the refusal for the task's owners (once per client UUID)."""
    match = repeat.match
    if client_id is not None:
        await queries.record_refusal(client_id, task_id, user_id, match.earlier_id, match.kind.value)
    raise ServiceError(
        "DUPLICATE_EXAMPLE",
        match.message(),
        details={
            "repeats_example_id": match.earlier_id,
            "repeats_excerpt": excerpt(repeat.text),
            "own": match.source is Source.OWN,
            "kind": match.kind.value,
            "similarity": round(match.score, 4),
        },
    )


async def remember_vector(example_id: int, config: TaskConfig, predictions: Sequence[Prediction]) -> None:
    """Keep the new example's vector for later checks (call in the transaction that stores the example)."""
    judged = vector_of(config, predictions)
    if judged is not None and judged.embedding is not None:
        await queries.store_vector(example_id, judged.encoder, judged.embedding.astype(VECTOR_DTYPE).tobytes())


def _comparable(stored: bytes | None, vector: np.ndarray | None) -> np.ndarray | None:
    """A stored vector, if it can be compared with the new one (same length: a model's output could change)."""
    if stored is None or vector is None:
        return None
    decoded = np.frombuffer(stored, dtype=VECTOR_DTYPE)
    return decoded if decoded.shape == vector.shape else None
