"""Validation, the aggregating side (run by the worker): outcomes and counters recomputed from rows, idempotently.

Each aggregation is announced as an ExampleAggregated domain event, recorded with the outcome it decided: who hears
of it (campaign ledgers, webhooks, the author's inbox, badges, live views) is registered in server/listeners.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.annotation import fooling, round_count_queries
from server.annotation.aggregation import OPEN, Vote, outcome
from server.annotation.domain_events import ExampleAggregated
from server.annotation.quality import gold, reliability
from server.annotation.records import ExampleStatus, ValidationMode
from server.annotation.round_counts import contribution
from server.annotation.validation import queries, stats
from server.core import db, events
from server.core.jsonutil import from_json
from server.core.services import Services
from server.domain_events import dispatcher as domain_events
from server.tasks.service import get_round, round_config


async def recount_round(services: Services, round_id: int) -> dict | None:
    """The round's counters from rows (a repair: every writer keeps them exact), announced to live views; None for an
    unknown round. It waits for the writes in flight and holds new ones until it is stored (round_count_queries)."""
    async with db.transaction():
        rows = await round_count_queries.recount(round_id)
    if not rows:
        return None
    await events.publish(services.redis, events.RoundStatsChanged(round_id=round_id))
    return rows[0]


async def recount_user(user_id: int, round_id: int) -> None:
    """Call in a transaction. The counters' row is locked first: the recount then sees every example and vote committed
    before the lock, and writers after it wait and add to the recount instead of being overwritten by it."""
    await queries.recount_user(user_id, round_id)


async def aggregate(services: Services, example_id: int) -> str | None:
    """Recompute one example's outcome from all its votes (idempotent), then the counters it moves."""
    async with db.transaction():
        # Lock the example: concurrent runs for the same example serialize here.
        example = await queries.lock_example(example_id)
        if example is None:
            return None
        settled = await settle(example)
        if settled is None:
            return str(example["status"])  # no verdict (or claim) yet: nothing to validate
        for user_id in settled.users:
            await recount_user(user_id, example["round"])
        aggregated = await domain_events.record(settled.event)
    await domain_events.announce(services, aggregated)
    return settled.event.status


@dataclass(frozen=True)
class Settled:
    event: ExampleAggregated  # to record in the transaction and announce after commit
    users: tuple[int, ...]  # the author and the voters, ascending: their counters are to be recounted (§6)


async def settle(example: dict[str, Any]) -> Settled | None:
    """In a transaction that holds the example's row lock: its outcome replayed from its votes, its status and verdict
    stored, what they change added to the round's counters and agreement sums, its votes marked aggregated. None for
    an example with no verdict (or claim) yet. The caller recounts `users` and records the event (shared by
    `aggregate` and by the removal of a deleted account's work, server/annotation/removal/)."""
    example_id = example["id"]
    if example["status"] in (ExampleStatus.PENDING, ExampleStatus.AWAITING_CLAIM):
        return None
    votes = await queries.votes(example_id)
    round_row = await get_round(example["round"])
    task = await queries.task_row(round_row["task"])
    config = await round_config(round_row)  # the config version the round runs with
    counted = await _counted_votes(round_row["task"], config, example, votes)
    decided = await _decide(round_row["task"], config, example, counted)
    rated = fooling.validators_decide(config)
    if decided == OPEN:
        kept_open = rated or example["fooled"] or config.validation.validate_non_fooling
        decided = (ExampleStatus.OPEN if kept_open else ExampleStatus.CLOSED).value
    if decided != example["status"]:
        await queries.set_status(example_id, decided)
    fooled = example["fooled"]
    if rated:  # validator_rating: the validators' outcome is the verdict (flagged or open: none yet)
        verdict = {ExampleStatus.VALIDATED: True, ExampleStatus.REJECTED: False}.get(ExampleStatus(decided))
        if verdict != fooled:
            await queries.set_fooled(example_id, verdict)
            fooled = verdict
    await queries.mark_aggregated(example_id)
    await _count_in_round(example, status=decided, fooled=fooled)
    user_votes = [v for v in votes if v["mode"] == ValidationMode.USER]
    await stats.add_to_agreement(
        example["round"], [v["label"] for v in user_votes if v["aggregated"]], [v["label"] for v in user_votes]
    )
    event = ExampleAggregated(
        example_id=example_id,
        round_id=example["round"],
        task_id=round_row["task"],
        task_code=task["code"],
        task_name=task["name"],
        author_id=example["user"],
        voter_ids=[v["user"] for v in votes],
        previous_status=str(example["status"]),
        status=str(decided),
        input=from_json(example.get("input")) or {},
        input_fields=[f.name for f in config.input_fields],
    )
    return Settled(event, tuple(sorted({example["user"], *(v["user"] for v in votes)})))


async def _count_in_round(example: dict, *, status: str, fooled: bool | None) -> None:
    """What the example's new status and verdict change in its round's counters (from its locked row: a repeated
    aggregation changes nothing and adds nothing)."""
    if (status, fooled) == (example["status"], example["fooled"]):
        return
    hidden_gold = await round_count_queries.is_hidden_gold(example["id"])
    before = contribution(
        retracted=example["retracted"], hidden_gold=hidden_gold, fooled=example["fooled"], status=example["status"]
    )
    after = contribution(retracted=example["retracted"], hidden_gold=hidden_gold, fooled=fooled, status=status)
    await round_count_queries.add(example["round"], after - before)


async def _decide(task_id: int, config, example: dict, counted: list) -> str:
    """The task's outcome rule (docs/design.md §4.2): N matching votes, or reliability-weighted votes. Under the
    reliability rule a decided example keeps its outcome (the model moves with the history; an owner vote decides
    at once when it comes before any decision, as in the matching rule)."""
    if config.validation.rule != "reliability":
        return outcome([Vote(v["label"], v["mode"]) for v in counted], config.validation.num_matching_validations)
    if example["status"] not in (ExampleStatus.OPEN, ExampleStatus.CLOSED):
        return example["status"]
    model = await reliability.task_model(task_id)
    return reliability.reliable_outcome(counted, model, config.validation)


async def _counted_votes(task_id: int, config, example: dict, votes: list) -> list:
    """The votes the outcome is computed from: on an example still undecided (open or closed), the user-mode votes
    of validators the gold rule pauses do not count (docs/design.md §4.2); a decided example keeps its votes."""
    if example["status"] not in (ExampleStatus.OPEN, ExampleStatus.CLOSED):
        return votes
    paused = await gold.paused_users(task_id, config, (v["user"] for v in votes if v["mode"] == ValidationMode.USER))
    return [v for v in votes if not (v["mode"] == ValidationMode.USER and v["user"] in paused)]


async def sweep_unaggregated(services: Services, limit: int = 200) -> int:
    """Aggregate examples that have votes no aggregation has seen (a lost job, a killed worker)."""
    example_ids = await queries.unaggregated_examples(limit)
    for example_id in example_ids:
        await aggregate(services, example_id)
    return len(example_ids)
