"""A task's (or round's) battle leaderboard: the votes as the ratings count them (rules.py: a person's votes on the same
pair and prompt once; check battles never), without the votes of voters flagged as content-independent
(server/battles/voters.py) or paused by the check rule (checks.py), Bradley–Terry with 1,000 bootstrap rounds and a
fixed seed (server/battles/ratings.py, docs/design.md §4.3a), and the counted votes' position bias.

Computed from rows by the worker's job after each vote (rate_task), or by a read that finds no cached board, and
cached in Redis under what it was computed from (the votes' count and last id: votes are only added, or removed with a
deleted account's work, which lowers the count; the latest reinstatement; the check rule's settings), so a new vote
makes the next computation new and the same rows always give the same numbers. The fit runs in a thread (it is numpy's work; the event loop keeps serving); a few thousand votes
take milliseconds (bench/battle_ratings.py: 1M votes of 40 models, ≈ 1.5 s)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from redis.exceptions import RedisError

from server.annotation.battles import checks, queries, rules
from server.annotation.records import BattleChoice
from server.battles import ratings, voters
from server.core.errors import not_found
from server.core.i18n import tr
from server.core.jsonutil import to_json
from server.core.services import Services
from server.tasks.generative_config import BattleConfig
from server.tasks.reads import task_by_id
from server.tasks.service import load_config

SEED = 0
ROUNDS = 1000
CACHE_TTL_S = 3600
log = logging.getLogger("dynabench.battles")


@dataclass(frozen=True)
class Board:
    ratings: ratings.Ratings
    ballots: int  # votes cast (on battles that are not checks)
    counted_ballots: int  # ballots of voters neither flagged nor paused
    flagged_voters: int
    paused_voters: int
    repeats: int  # pairwise battles not counted: the same voter, prompt and pair again
    position_bias: tuple[voters.PositionShare, ...]


@dataclass(frozen=True)
class VoterQuality:
    username: str
    positions: voters.VoterCheck  # `voter` is the user id
    checks_answered: int  # every check answer in the task
    checks_right: int
    paused: bool  # by the check rule, over the answers since their latest reinstatement

    @property
    def excluded(self) -> str | None:
        """Why their votes leave the ratings and the preference export: "flagged", "paused" or None."""
        return "flagged" if self.positions.flagged else "paused" if self.paused else None


def votes_of(rows: list[dict]) -> list[rules.Vote]:
    return [rules.Vote(row["user"], row["prompt"], row["models"], BattleChoice(row["choice"])) for row in rows]


def check_voters(votes: list[rules.Vote]) -> dict[Hashable, voters.VoterCheck]:
    """Every voter's check over their votes in `votes` (the task's: a voter's habits are the same in every round)."""
    return voters.check_voters(voters.PositionVote(v.voter, len(v.models), rules.position_of(v.choice)) for v in votes)


def voter_quality_of(rows: list[dict], check_rows: list[dict], battle_rules: BattleConfig | None) -> list[VoterQuality]:
    """Every voter in the vote rows (VOTES) and check rows (CHECK_VOTES), excluded ones first, then by votes. Pure."""
    names = {row["user"]: row["username"] for row in [*rows, *check_rows]}
    positions = check_voters(votes_of(rows))
    rule = battle_rules.checks if battle_rules is not None else None
    answers: dict[Hashable, list[tuple[BattleChoice, int, bool]]] = defaultdict(list)
    for r in check_rows:  # grouped once: a voter's check answers, in the order cast
        answers[r["user"]].append((BattleChoice(r["choice"]), r["check_position"], r["since_reinstated"]))
    found = []
    for voter, name in names.items():
        mine = answers.get(voter, [])
        every = checks.check_stats((choice, position) for choice, position, _ in mine)
        since = checks.check_stats((choice, position) for choice, position, recent in mine if recent)
        position = positions.get(voter) or voters.check_voter(voter, [])
        found.append(VoterQuality(name, position, every.answered, every.right, checks.paused(since, rule)))
    return sorted(found, key=lambda q: (q.excluded is None, -q.positions.votes, q.username))


def board(votes: list[rules.Vote], excluded: Mapping[Hashable, str]) -> Board:
    """The leaderboard of `votes` (in the order cast), leaving out the voters in `excluded` (voter → "flagged" or
    "paused"). Pure."""
    counted = [vote for vote in votes if vote.voter not in excluded]
    battles = rules.battles_of_votes(counted)
    every = sum(len(rules.rated_battles(vote.models, vote.choice)) for vote in counted)
    present = {vote.voter for vote in votes}
    return Board(
        ratings=ratings.bootstrap(battles, ROUNDS, SEED),
        ballots=len(votes),
        counted_ballots=len(counted),
        flagged_voters=sum(1 for voter in present if excluded.get(voter) == "flagged"),
        paused_voters=sum(1 for voter in present if excluded.get(voter) == "paused"),
        repeats=every - len(battles),
        position_bias=tuple(
            voters.position_bias(voters.PositionVote(v.voter, len(v.models), rules.position_of(v.choice)) for v in counted)
        ),
    )


def _excluded(qualities: list[VoterQuality]) -> dict[Hashable, str]:
    return {q.positions.voter: q.excluded for q in qualities if q.excluded is not None}


def _board_of_rows(rows: list[dict], check_rows: list[dict], round_id: int | None, battle_rules: BattleConfig | None) -> Board:
    every = votes_of(rows)
    excluded = _excluded(voter_quality_of(rows, check_rows, battle_rules))
    scope = every if round_id is None else [vote for vote, row in zip(every, rows) if row["round"] == round_id]
    return board(scope, excluded)


async def voter_quality(task_id: int, battle_rules: BattleConfig | None) -> list[VoterQuality]:
    """Every battle voter of the task with their position check and check answers."""
    rows = await queries.VOTES.rows(task=task_id, round=None, last_id=None)
    return voter_quality_of(rows, await queries.CHECK_VOTES.rows(task=task_id, user=None), battle_rules)


async def excluded_voters(task_id: int, battle_rules: BattleConfig | None) -> set[Hashable]:
    """The voters whose votes leave the ratings and the preference export (flagged or paused)."""
    return set(_excluded(await voter_quality(task_id, battle_rules)))


async def battle_leaderboard(services: Services, task_id: int, round_id: int | None, battle_rules: BattleConfig | None) -> Board:
    if round_id is not None and await queries.ROUND_OF_TASK.row(round=round_id, task=task_id) is None:
        raise not_found(tr("That round"))
    # The task's votes, whatever the scope: who is flagged or paused depends on all of them.
    stamp = await queries.VOTES_STAMP.row(task=task_id, round=None)
    assert stamp is not None  # an aggregate always has a row
    key = (
        f"dynabench:battle-board:v4:{task_id}:{round_id or 'all'}:{stamp['votes']}:{stamp['last_id']}:{stamp['last_at']}:"
        f"{stamp['reinstated_at']}:{_rules_key(battle_rules)}"
    )
    with contextlib.suppress(RedisError, OSError):
        cached = await services.redis.get(key)
        if cached:
            return decode(cached)
    rows = await queries.VOTES.rows(task=task_id, round=None, last_id=stamp["last_id"])
    check_rows = await queries.CHECK_VOTES.rows(task=task_id, user=None)
    result = await asyncio.to_thread(_board_of_rows, rows, check_rows, round_id, battle_rules)
    if len(rows) + len(check_rows) == stamp["votes"]:  # not when a vote committed in between: the key would not say it
        try:
            await services.redis.set(key, to_json(dataclasses.asdict(result)), ex=CACHE_TTL_S)
        except (RedisError, OSError):
            log.warning("could not cache a battle leaderboard", exc_info=True)
    return result


async def rate_task(services: Services, task_id: int, vote_id: int | None = None) -> dict[str, int]:
    """The task's leaderboard and each voted round's, computed from rows and cached as reads would (the job after a
    vote: the next read is instant). Idempotent: the same rows give the same numbers under the same keys. The job of a
    vote that is no longer the task's latest does nothing: the latest vote's job computes what it would have (a burst
    of votes is rated once, not once per vote)."""
    if vote_id is not None:
        stamp = await queries.VOTES_STAMP.row(task=task_id, round=None)
        if stamp is not None and stamp["last_id"] > vote_id:
            return {"boards": 0}
    task = await task_by_id(task_id)
    if task is None:  # deleted since the vote
        return {"boards": 0}
    config = load_config(task)
    battle_rules = config.generative.battle if config.generative is not None else None
    rounds = [row["round"] for row in await queries.VOTED_ROUNDS.rows(task=task_id)]
    for round_id in (None, *rounds):
        await battle_leaderboard(services, task_id, round_id, battle_rules)
    return {"boards": 1 + len(rounds)}


def _rules_key(battle_rules: BattleConfig | None) -> str:
    """The check rule's settings: an owner who changes them changes who is paused."""
    found = battle_rules.checks if battle_rules is not None else None
    return "none" if found is None else f"{found.min_answers}-{found.threshold}"


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
        paused_voters=data["paused_voters"],
        repeats=data["repeats"],
        position_bias=tuple(voters.PositionShare(**share) for share in data["position_bias"]),
    )
