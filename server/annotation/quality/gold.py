"""Gold items in validation (docs/design.md §4.2): owners mark examples with their right answer; the validator's
queue mixes them in at the task's `validation.gold_rate` (gold_rules.py), served exactly like other items; a
validator's answer on a gold item is graded (gold_answers), never a vote. Below `gold_pause_below` accuracy after
`gold_min_answers` gold answers the validator is paused for the task: no more queue items, validateExample refuses,
and their votes on examples still undecided are excluded from aggregation (those examples are re-aggregated)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation import round_count_queries
from server.annotation.quality import queries
from server.annotation.quality.gold_rules import GoldStats, PauseRule, is_paused, next_is_gold, pick_gold
from server.annotation.records import ValidationLabel
from server.annotation.round_counts import contribution
from server.annotation.validation import jobs as validation_jobs
from server.core import db, jobs
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.services import Services
from server.tasks.config import TaskConfig

PAUSED_MESSAGE = tr(
    "You are paused for this task: too many of your answers on check items did not match the known answers. "
    "The task's owners can review your work."
)
_RNG = random.SystemRandom()


def pause_rule(config: TaskConfig) -> PauseRule:
    return PauseRule(threshold=config.validation.gold_pause_below, min_answers=config.validation.gold_min_answers)


async def paused_users(task_id: int, config: TaskConfig, user_ids: Iterable[int]) -> set[int]:
    """The given validators whom the task's gold rule pauses (a pure function of their gold answers)."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    rule = pause_rule(config)
    counts = await queries.gold_counts(task_id, ids)
    return {user for user, (answered, right) in counts.items() if is_paused(GoldStats(answered, right), rule)}


async def check_not_paused(task_id: int, config: TaskConfig, user_id: int) -> None:
    if user_id in await paused_users(task_id, config, [user_id]):
        raise ServiceError("FORBIDDEN", PAUSED_MESSAGE)


async def mix_gold(
    round_id: int, user_id: int, config: TaskConfig, picked: list[int], first: int, rng: random.Random | None = None
) -> list[int]:
    """The queue's items with gold mixed in: each of the `first` slots is gold with probability gold_rate (while
    unanswered gold remains), else the next ordinary item."""
    rate = config.validation.gold_rate
    if rate <= 0:
        return picked
    rng = rng or _RNG
    gold_ids = await queries.fresh_gold(round_id, user_id)
    served: list[int] = []
    used: set[int] = set()
    ordinary = iter(picked)
    for _ in range(first):
        gold = pick_gold(rng, gold_ids, used) if gold_ids and next_is_gold(rng, rate) else None
        if gold is not None:
            used.add(gold)
            served.append(gold)
            continue
        item = next(ordinary, None)
        if item is None:
            break
        served.append(item)
    return served


async def answer_gold(services: Services, gold: dict, config: TaskConfig, user_id: int, label: str) -> dict:
    """Grade a validator's answer on a gold item; if it pauses them, re-aggregate the undecided examples they voted
    on. Returns a row shaped like a vote (the validator sees no difference)."""
    answered = await queries.insert_gold_answer(gold["example"], gold["task"], user_id, label, gold["answer"])
    if answered is None:
        # Its own code: the PWA's outbox takes it as "this vote is stored" after a lost reply.
        raise ServiceError("ALREADY_VALIDATED", tr("You have already validated this example."))
    if user_id in await paused_users(gold["task"], config, [user_id]):
        for example_id in await queries.open_voted_examples(gold["task"], user_id):
            await jobs.enqueue(services.arq, validation_jobs.aggregate_example, example_id)
    return {"label": label, "mode": "user", "note": ""}


async def mark_gold(viewer: Viewer, example: dict, task_id: int, answer: str) -> None:
    _check_owner(viewer, task_id)
    if answer not in tuple(ValidationLabel):
        raise invalid(tr("Unknown answer."), FieldProblem("answer", tr("must be CORRECT, INCORRECT or FLAGGED")))
    if example["retracted"]:
        raise ServiceError("CONFLICT", tr("This example was retracted by its author."))
    await queries.mark_gold(example["id"], task_id, answer)


async def unmark_gold(viewer: Viewer, example: dict, task_id: int) -> None:
    _check_owner(viewer, task_id)
    async with db.transaction():
        state = await queries.lock_example_state(example["id"])
        removed = await queries.unmark_gold(example["id"])
        if removed is None or state is None:
            raise not_found(tr("That gold item"))
        if removed["hidden"]:  # an uploaded row no longer hidden: it counts in its round from now on
            counts = contribution(retracted=state["retracted"], hidden_gold=False, fooled=state["fooled"], status=state["status"])
            await round_count_queries.add(state["round"], counts)


def _check_owner(viewer: Viewer, task_id: int) -> None:
    denied = permissions.manage_gold(viewer, task_id)
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
