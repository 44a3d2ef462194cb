"""A task's (or round's) battle leaderboard: the votes as the ratings count them (rules.py), Bradley–Terry with 1,000
bootstrap rounds and a fixed seed (server/battles/ratings.py, docs/design.md §4.3a).

Computed when read and cached in Redis under the votes it was computed from (their count and last id: votes are only
added), so a new vote makes the next read compute again and the same votes always give the same numbers. The fit runs
in a thread (it is numpy's work; the event loop keeps serving). Recomputing on read is simpler than a job and never
stale; a few thousand votes take milliseconds (bench/battle_ratings.py: 1M votes of 40 models, ≈ 1.5 s)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging

from redis.exceptions import RedisError

from server.annotation.battles import queries, rules
from server.annotation.records import BattleChoice
from server.battles import ratings
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.jsonutil import to_json
from server.core.services import Services

SEED = 0
ROUNDS = 1000
CACHE_TTL_S = 3600
log = logging.getLogger("dynabench.battles")


async def battle_leaderboard(services: Services, task_id: int, round_id: int | None) -> ratings.Ratings:
    if round_id is not None and await queries.ROUND_OF_TASK.row(round=round_id, task=task_id) is None:
        raise not_found(tr("That round"))
    stamp = await queries.VOTES_STAMP.row(task=task_id, round=round_id)
    assert stamp is not None  # an aggregate always has a row
    key = f"dynabench:battle-board:{task_id}:{round_id or 'all'}:{stamp['votes']}:{stamp['last_id']}"
    with contextlib.suppress(RedisError, OSError):
        cached = await services.redis.get(key)
        if cached:
            return decode(cached)
    rows = await queries.VOTES.rows(task=task_id, round=round_id, last_id=stamp["last_id"])
    battles = rules.battles_of_votes([(row["models"], BattleChoice(row["choice"])) for row in rows])
    result = await asyncio.to_thread(ratings.bootstrap, battles, ROUNDS, SEED)
    if len(rows) == stamp["votes"]:  # not when a vote of a smaller id committed in between: the key would not say it
        try:
            await services.redis.set(key, to_json(dataclasses.asdict(result)), ex=CACHE_TTL_S)
        except (RedisError, OSError):
            log.warning("could not cache a battle leaderboard", exc_info=True)
    return result


def decode(text: str | bytes) -> ratings.Ratings:
    data = json.loads(text)
    return ratings.Ratings(
        models=tuple(ratings.ModelRating(**model) for model in data["models"]),
        win_rate=tuple(tuple(row) for row in data["win_rate"]),
        votes=data["votes"],
        rounds=data["rounds"],
        seed=data["seed"],
        alpha=data["alpha"],
    )
