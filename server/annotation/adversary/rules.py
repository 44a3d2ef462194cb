"""The pure rules of adversary runs (docs/design.md §4.1f): limits, a run's client UUIDs, the label a machine-made
classification example claims, how many generator calls a run may make. No I/O."""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from server.tasks.config import TaskConfig
from server.tasks.suggestions_config import GeneratorConfig

MAX_COUNT = 200  # examples one run may ask for
DAILY_PER_TASK = 1000  # examples asked of a task's runs per UTC day, all owners together
MACHINE_USERNAME = "~machine"  # the author of every machine-made example; sign-up cannot take a name with "~"


class RunStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


FINISHED = frozenset({RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED})


def example_client_id(run_client_id: uuid.UUID, index: int) -> uuid.UUID:
    """The client UUID of the run's `index`th example: a re-run after a crash writes the same index under the same
    UUID, which the examples' unique client UUID turns into a no-op."""
    return uuid.uuid5(run_client_id, f"example:{index}")


def conversation_client_ids(example_id: uuid.UUID) -> tuple[uuid.UUID, uuid.UUID]:
    """A generative task's example: its conversation's and its one message's client UUIDs, derived from it."""
    return uuid.uuid5(example_id, "conversation"), uuid.uuid5(example_id, "message")


def intended_label(labels: Sequence[str], candidate_label: str | None, output: Mapping[str, Any]) -> str:
    """The label a machine-made example claims: the generator's own when it gave one of the task's; otherwise the
    label the target found likeliest after its own answer (the runner-up of its probabilities; without them, the
    first other label). Such an example fools the target by construction: whether the claim is right is what the
    validators decide, so the run's validated fooled count is the figure that matters."""
    if candidate_label in labels:
        return str(candidate_label)
    predicted = output.get("label")
    others = [label for label in labels if label != predicted] or list(labels)
    probs = output.get("probs")
    if isinstance(probs, Mapping):
        return max(others, key=lambda label: (_number(probs.get(label)), -others.index(label)))
    return others[0]


ENDPOINT_PREFIX = "endpoint:"


def with_generator(config: TaskConfig, source: str | None) -> TaskConfig:
    """The task config asking `source` (a served model's name, or "endpoint:<name>"; None or "": the config's own
    generator), with the config's count, max_tokens and temperature (else the defaults). ValueError when the name
    is not one (pydantic's checks of a config's generator)."""
    own = config.suggestions.generator
    if not source or (own is not None and own.source == source):
        return config
    settings = own.model_dump(exclude={"model", "endpoint"}) if own is not None else {}
    if source.startswith(ENDPOINT_PREFIX):
        chosen = GeneratorConfig(endpoint=source[len(ENDPOINT_PREFIX) :], **settings)
    else:
        chosen = GeneratorConfig(model=source, **settings)
    return config.model_copy(update={"suggestions": config.suggestions.model_copy(update={"generator": chosen})})


def calls_allowed(remaining: int, per_call: int) -> int:
    """Generator calls a run may make for `remaining` examples: twice what a generator that always answers in full
    needs, plus two; a generator whose answers keep being refused (empty, too long, repeats) ends the run early."""
    return 2 * math.ceil(max(remaining, 0) / max(per_call, 1)) + 2


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("-inf")
