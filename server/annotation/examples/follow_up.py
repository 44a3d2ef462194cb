"""answerFollowUp: after the model's verdict, the author answers the task's fields asked on that verdict (`show_when`
fooled or not_fooled, e.g. "why did it fool the model"). Once per example, idempotent on the client UUID; the answers
join the example's stored input (so they are exported, searched and shown with it)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from server.accounts.viewer import Principal
from server.annotation.examples import queries
from server.annotation.examples.actions import own_example
from server.annotation.records import ExampleRow, ExampleStatus
from server.annotation.validation_input import check_follow_up
from server.core.errors import ServiceError
from server.core.i18n import tr
from server.core.jsonutil import from_json, to_json
from server.tasks.service import get_round, round_config


@dataclass(frozen=True)
class FollowUpOutcome:
    example: ExampleRow
    duplicate: bool  # the same client UUID again: nothing new was written


_DECIDED = (ExampleStatus.VALIDATED, ExampleStatus.REJECTED, ExampleStatus.FLAGGED)


def _refusal(example: ExampleRow, client_id: uuid.UUID) -> ServiceError | None:
    """Why this example takes no follow-up answers now, or None (a repeat of this UUID is answered before this)."""
    if example["retracted"]:
        return ServiceError("CONFLICT", tr("This example was retracted."))
    if example.get("follow_up_client_id") is not None:
        return ServiceError("CONFLICT", tr("The follow-up questions of this example are already answered."))
    if example["fooled"] is None:
        return ServiceError("CONFLICT", tr("The model's verdict on this example is not known yet."))
    if example["status"] in _DECIDED:
        return ServiceError("CONFLICT", tr("This example is already validated: its answers can no longer change."))
    return None


async def answer_follow_up(viewer: Principal, example_id: int, fields: object, client_id: uuid.UUID) -> FollowUpOutcome:
    example = await own_example(example_id, viewer)  # not found; the author only
    if example.get("follow_up_client_id") == client_id:
        return FollowUpOutcome(example, duplicate=True)
    refusal = _refusal(example, client_id)
    if refusal is not None:
        raise refusal
    fooled = bool(example["fooled"])
    config = await round_config(await get_round(example["round"]))
    context = from_json(await queries.context_fields(example["context"])) or {}
    values = check_follow_up(config, context, fooled, fields)
    stored = await queries.set_follow_up(example_id, fooled, to_json(values), client_id)
    if stored is not None:
        return FollowUpOutcome(stored, duplicate=False)
    # Changed meanwhile: the same answers retried, other answers, a retraction, a decision.
    example = await own_example(example_id, viewer)
    if example.get("follow_up_client_id") == client_id:
        return FollowUpOutcome(example, duplicate=True)
    raise _refusal(example, client_id) or ServiceError("CONFLICT", tr("This example changed meanwhile; reload it."))
