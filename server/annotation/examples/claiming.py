"""claimFooled: the author of an `ask_user` example says whether the model got it wrong, once (docs/design.md §4.1).

(Not the validators' queue claims of validation/voting.py: this is the annotator's claim about the model.)
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from server.accounts.viewer import Principal
from server.annotation.examples import queries
from server.annotation.examples.actions import own_example
from server.annotation.examples.announce import example_judged
from server.annotation.examples.judging import status_after_verdict, verdict_of
from server.annotation.fooling_claims import REFUSED, REPEAT, check_claim, claim_message
from server.annotation.records import ExampleRow, Verdict
from server.core import db, events
from server.core.errors import ServiceError
from server.core.i18n import tr
from server.core.services import Services
from server.tasks.service import get_round, round_config


@dataclass(frozen=True)
class ClaimOutcome:
    example: ExampleRow
    verdict: Verdict
    message: str
    duplicate: bool  # the same client UUID again: nothing new was written


async def claim_fooled(
    services: Services, viewer: Principal, example_id: int, model_was_wrong: bool, client_id: uuid.UUID
) -> ClaimOutcome:
    """Store the claim as the example's `fooled` (validators then confirm or reject it); idempotent on the
    client UUID, refused (CONFLICT) once another claim is stored or when there is nothing to claim."""
    example = await own_example(example_id, viewer)  # not found; the author only
    check = check_claim(example, client_id)
    if check.outcome == REPEAT:
        return _outcome(example, duplicate=True)
    if check.outcome == REFUSED:
        raise ServiceError("CONFLICT", check.message)
    round_row = await get_round(example["round"])
    config = await round_config(round_row)
    status = status_after_verdict(config, model_was_wrong)
    async with db.transaction():
        claimed = await queries.settle_claim(example_id, model_was_wrong, status, client_id)
        if claimed is not None and model_was_wrong:
            # Already counted as collected: it now counts as fooled too (the same lock order as every writer).
            await queries.count_fooled(example["round"], example["context"], example["user"])
    if claimed is None:
        # Another request changed it meanwhile (the same claim retried, another claim, a retraction).
        return await _after_race(example_id, viewer, client_id)
    example_judged(services, claimed)
    await events.publish(services.redis, events.RoundStatsChanged(round_id=claimed["round"]))
    return _outcome(claimed, duplicate=False)


async def _after_race(example_id: int, viewer: Principal, client_id: uuid.UUID) -> ClaimOutcome:
    example = await own_example(example_id, viewer)
    check = check_claim(example, client_id)
    if check.outcome == REPEAT:
        return _outcome(example, duplicate=True)
    raise ServiceError("CONFLICT", check.message or tr("This example changed meanwhile; reload it."))


def _outcome(example: ExampleRow, duplicate: bool) -> ClaimOutcome:
    return ClaimOutcome(
        example=example,
        verdict=verdict_of(example["fooled"], example["status"]),
        message=claim_message(bool(example["fooled"]), example["status"]),
        duplicate=duplicate,
    )
