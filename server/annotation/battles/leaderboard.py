"""A task's (or round's) battle leaderboard: the votes as the ratings count them (rules.py: a person's votes on the same
pair and prompt once), without the votes of voters flagged as content-independent (server/battles/voters.py),
Bradley–Terry with 1,000 bootstrap rounds and a fixed seed (server/battles/ratings.py, docs/design.md §4.3a), and the
counted votes' position bias.

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
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from redis.exceptions import RedisError

from server.annotation.battles import queries, rules
from server.annotation.records import BattleChoice
from server.battles import ratings, voters
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.jsonutil import to_json
from server.core.services import Services

SEED = 0
ROUNDS = 1000
CACHE_TTL_S = 3600
log = logging.getLogger("dynabench.battles")


@dataclass(frozen=True)
class Board:
    ratings: ratings.Ratings
    ballots: int  # votes cast
    counted_ballots: int  # ballots of voters not flagged
    flagged_voters: int
    repeats: int  # pairwise battles not counted: the same voter, prompt and pair again
    position_bias: tuple[voters.PositionShare, ...]


def votes_of(rows: list[dict]) -> list[rules.Vote]:
    return [rules.Vote(row["user"], row["prompt"], row["models"], BattleChoice(row["choice"])) for row in rows]


def check_voters(votes: list[rules.Vote]) -> dict[Hashable, voters.VoterCheck]:
    """Every voter's check over their votes in `votes` (the task's: a voter's habits are the same in every round)."""
    return voters.check_voters(voters.PositionVote(v.voter, len(v.models), rules.position_of(v.choice)) for v in votes)


def board(votes: list[rules.Vote], checks: Mapping[Hashable, voters.VoterCheck]) -> Board:
    """The leaderboard of `votes` (in the order cast), leaving out the voters `checks` flags. Pure."""
    counted = [vote for vote in votes if not checks[vote.voter].flagged]
    battles = rules.battles_of_votes(counted)
    every = sum(len(rules.rated_battles(vote.models, vote.choice)) for vote in counted)
    return Board(
        ratings=ratings.bootstrap(battles, ROUNDS, SEED),
        ballots=len(votes),
        counted_ballots=len(counted),
        flagged_voters=len({vote.voter for vote in votes if checks[vote.voter].flagged}),
        repeats=every - len(battles),
        position_bias=tuple(
            voters.position_bias(voters.PositionVote(v.voter, len(v.models), rules.position_of(v.choice)) for v in counted)
        ),
    )


def _board_of_rows(rows: list[dict], round_id: int | None) -> Board:
    every = votes_of(rows)
    scope = every if round_id is None else [vote for vote, row in zip(every, rows) if row["round"] == round_id]
    return board(scope, check_voters(every))


async def voter_checks(task_id: int) -> list[tuple[str, voters.VoterCheck]]:
    """Each battle voter of the task (username, check), flagged first, then by votes."""
    rows = await queries.VOTES.rows(task=task_id, round=None, last_id=None)
    names = {row["user"]: row["username"] for row in rows}
    checks = check_voters(votes_of(rows))
    ordered = sorted(checks.values(), key=lambda c: (not c.flagged, -c.votes, names[c.voter]))
    return [(names[check.voter], check) for check in ordered]


async def flagged_voters(task_id: int) -> set[Hashable]:
    rows = await queries.VOTES.rows(task=task_id, round=None, last_id=None)
    return {voter for voter, check in check_voters(votes_of(rows)).items() if check.flagged}


async def battle_leaderboard(services: Services, task_id: int, round_id: int | None) -> Board:
    if round_id is not None and await queries.ROUND_OF_TASK.row(round=round_id, task=task_id) is None:
        raise not_found(tr("That round"))
    # The task's votes, whatever the scope: who is flagged depends on all of them.
    stamp = await queries.VOTES_STAMP.row(task=task_id, round=None)
    assert stamp is not None  # an aggregate always has a row
    key = f"dynabench:battle-board:v2:{task_id}:{round_id or 'all'}:{stamp['votes']}:{stamp['last_id']}"
    with contextlib.suppress(RedisError, OSError):
        cached = await services.redis.get(key)
        if cached:
            return decode(cached)
    rows = await queries.VOTES.rows(task=task_id, round=None, last_id=stamp["last_id"])
    result = await asyncio.to_thread(_board_of_rows, rows, round_id)
    if len(rows) == stamp["votes"]:  # not when a vote of a smaller id committed in between: the key would not say it
        try:
            await services.redis.set(key, to_json(dataclasses.asdict(result)), ex=CACHE_TTL_S)
        except (RedisError, OSError):
            log.warning("could not cache a battle leaderboard", exc_info=True)
    return result


def decode(text: str | bytes) -> Board:
    data = json.loads(text)
    rated = data["ratings"]
    return Board(
        ratings=ratings.Ratings(
            models=tuple(ratings.ModelRating(**model) for model in rated["models"]),
            win_rate=tuple(tuple(row) for row in rated["win_rate"]),
            votes=rated["votes"],
            rounds=rated["rounds"],
            seed=rated["seed"],
            alpha=rated["alpha"],
        ),
        ballots=data["ballots"],
        counted_ballots=data["counted_ballots"],
        flagged_voters=data["flagged_voters"],
        repeats=data["repeats"],
        position_bias=tuple(voters.PositionShare(**share) for share in data["position_bias"]),
    )
