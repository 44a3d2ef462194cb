"""Side-by-side battles (docs/design.md §4.1d): one prompt answered by 2–4 anonymous targets, each side a conversation of
one exchange whose reply streams like a chat's (server/annotation/conversations/), then the author's blind vote, which
reveals the sides' models. Both writes are idempotent on a client UUID."""

from __future__ import annotations

import contextlib
import random
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from redis.exceptions import RedisError

from server import permissions
from server.accounts.viewer import Principal
from server.annotation.battles import checks, jobs, preferences, queries, rules
from server.annotation.conversations import service as conversations
from server.annotation.records import BattleChoice, ReplyStatus
from server.core import db, rate_limits
from server.core import jobs as core_jobs
from server.core.errors import FieldProblem, ServiceError, invalid, not_found, rate_limited
from server.core.i18n import tr
from server.core.rate_limits import Action
from server.core.services import Services
from server.tasks.config import TaskConfig
from server.tasks.form_fields import FieldSpec
from server.tasks.generative_config import BattleConfig

_RANDOM = random.SystemRandom()
PAUSED = tr(
    "You are paused on this task's battles: too many of your votes preferred a check answer to a real one. "
    "The task's owners can review your votes and reinstate you."
)


@dataclass(frozen=True)
class BattleStart:
    round_id: int
    context_id: int
    client_id: uuid.UUID
    text: str


@dataclass(frozen=True)
class BattleVoteRequest:
    battle_id: int
    client_id: uuid.UUID
    choice: BattleChoice | None  # None: implied by the ratings (preferences.implied_choice)
    ratings: tuple[float, ...] | None = None  # one per side, on the task's rating field (generative.battle.rating_field)


@dataclass(frozen=True)
class BattleView:
    """A battle as its author reads it: the sides (each with its target, which readers show only once `vote` is set)."""

    battle: dict
    sides: list[dict]  # position, conversation, rating, target, turn_id, reply, status, error, model_version, ...
    vote: dict | None
    rules: BattleConfig
    rating_spec: FieldSpec | None = None  # the form's field each side is rated in, if the task rates sides
    continuation: dict | None = None  # the side its author went on talking to after the vote

    @property
    def continuable(self) -> list[int]:
        """The positions of the sides its author may go on talking to (continueBattle): none before the vote; the
        continued one once there is one; else the preferred ones."""
        if self.vote is None:
            return []
        if self.continuation is not None:
            return [self.continuation["position"]]
        preferred = preferences.preferred_positions(BattleChoice(self.vote["choice"]), [s["rating"] for s in self.sides])
        return [p for p in preferred if p != self.battle.get("check_position")]  # no model to talk to on a check side

    @property
    def choices(self) -> list[BattleChoice]:
        return rules.choices(len(self.sides), self.rules)

    @property
    def ended(self) -> bool:
        """Every side's reply ended (done, stopped or failed): the vote may be cast."""
        return all(side["status"] != ReplyStatus.GENERATING for side in self.sides)


@dataclass(frozen=True)
class Outcome:
    view: BattleView
    duplicate: bool  # the client UUID was already used: nothing new was written or asked


async def start_battle(services: Services, viewer: Principal, start: BattleStart, address: str | None = None) -> Outcome:
    retried = await queries.BATTLE_BY_CLIENT_ID.row(client_id=start.client_id)
    if retried is not None:
        return Outcome(await _view_of_used_client_id(viewer, retried), duplicate=True)
    # Counted as one message (as sendMessage), given back when refused.
    taken = await rate_limits.take(
        services.redis, services.settings, Action.SEND_MESSAGE, account=viewer.user_id, address=address
    )
    try:
        opened = await conversations.open_round(viewer, start.round_id, start.context_id)
        battle_rules = _rules(opened.config)
        conversations.check_text(opened.config, start.text)
        targets = opened.round_row["target_models"]
        if len({t["name"] for t in targets}) < battle_rules.sides:
            raise ServiceError(
                "MODEL_UNAVAILABLE",
                tr("A battle needs {count} different targets and this round has fewer.", count=battle_rules.sides),
            )
        _check_cap(await queries.BATTLES_TODAY.value(user=viewer.user_id, task=opened.round_row["task"]), battle_rules)
        if await voter_paused(opened.round_row["task"], viewer.user_id, battle_rules):
            raise ServiceError("FORBIDDEN", PAUSED)
        seen = await queries.SEEN_SIDES.rows(user=viewer.user_id, round=opened.round_row["id"], prompt=start.text)
        pair_counts = None
        if battle_rules.selection == "balanced":
            met = await queries.PAIR_COUNTS.rows(round=opened.round_row["id"])
            pair_counts = {frozenset((row["first"], row["second"])): row["battles"] for row in met}
        chosen = rules.choose_sides(targets, battle_rules.sides, {frozenset(r["names"]) for r in seen}, _RANDOM, pair_counts)
        sides = await _insert(viewer, opened, start, chosen, checks.plan_check(battle_rules.checks, len(chosen), _RANDOM))
    except ServiceError:
        await taken.give_back(services.redis)
        raise
    if sides is None:  # the same battle a moment ago, from another request
        retried = await queries.BATTLE_BY_CLIENT_ID.row(client_id=start.client_id)
        assert retried is not None  # its insert committed before ours gave way
        return Outcome(await _view_of_used_client_id(viewer, retried), duplicate=True)
    battle, asked = sides
    for loaded, turn in asked:
        conversations.ask(services, viewer, loaded, turn)
    return Outcome(await load_battle(viewer, battle["id"]), duplicate=False)


async def _insert(
    viewer: Principal, opened: conversations.Loaded, start: BattleStart, chosen: list[dict], check: checks.CheckPlan | None
) -> tuple[dict, list[tuple[conversations.Loaded, dict]]] | None:
    """The battle, one conversation per side with the prompt as its first turn, and the sides, all or nothing; None
    when the client UUID was taken meanwhile. A check battle's check side takes the place of the target chosen there;
    its reply is stored at once (the others are asked after commit)."""
    async with db.transaction():
        battle = await queries.INSERT_BATTLE.row(
            client_id=start.client_id,
            round=opened.round_row["id"],
            context=opened.context["id"],
            user=viewer.user_id,
            prompt=start.text,
            check_position=check.position if check is not None else None,
        )
        if battle is None:
            return None
        asked = []
        for position, target in enumerate(chosen):
            is_check = check is not None and position == check.position
            conversation = await conversations.new_conversation(
                viewer, opened, uuid.uuid4(), checks.CHECK_TARGET if is_check else target
            )
            assert conversation is not None  # a fresh UUID
            turn = await conversations.insert_turn(conversation, opened.config, uuid.uuid4(), start.text)
            assert turn is not None  # the first exchange of a new conversation
            await queries.INSERT_SIDE.row(battle=battle["id"], position=position, conversation=conversation["id"])
            if check is not None and is_check:
                await conversations.store_written_reply(turn, check.reply)
            else:
                asked.append((replace(opened, conversation=conversation, turns=[turn]), turn))
    return battle, asked


async def voter_paused(task_id: int, user_id: int, battle_rules: BattleConfig) -> bool:
    """The check rule paused this voter in the task (checks.py), over their answers since their latest reinstatement."""
    if battle_rules.checks is None:
        return False
    rows = await queries.CHECK_VOTES.rows(task=task_id, user=user_id)
    stats = checks.check_stats((BattleChoice(r["choice"]), r["check_position"]) for r in rows if r["since_reinstated"])
    return checks.paused(stats, battle_rules.checks)


async def vote_battle(services: Services, viewer: Principal, request: BattleVoteRequest) -> Outcome:
    retried = await queries.VOTE_BY_CLIENT_ID.row(client_id=request.client_id)
    if retried is not None:
        if retried["battle"] != request.battle_id or retried["user"] != viewer.user_id:
            raise ServiceError("CONFLICT", tr("This client UUID is already used."))
        return Outcome(await load_battle(viewer, request.battle_id), duplicate=True)
    view = await load_battle(viewer, request.battle_id)
    if view.vote is not None:
        raise ServiceError("CONFLICT", tr("This battle has its vote already."))
    choice, ratings = _checked_vote(view, request)
    if not view.ended:
        raise ServiceError("CONFLICT", tr("Wait until every reply has ended before voting."))
    _check_cap(await queries.VOTES_TODAY.value(user=viewer.user_id, task=view.battle["task"]), view.rules)
    async with db.transaction():  # the vote and its ratings, or neither
        stored = await queries.INSERT_VOTE.row(
            battle=request.battle_id, user=viewer.user_id, choice=choice, client_id=request.client_id
        )
        for position, rating in enumerate(ratings if stored is not None else []):
            await queries.SET_SIDE_RATING.execute(battle=request.battle_id, position=position, rating=rating)
    if stored is None:  # another request stored a vote (or used this UUID) a moment ago
        again = await queries.VOTE_BY_CLIENT_ID.row(client_id=request.client_id)
        if again is not None and again["battle"] == request.battle_id and again["user"] == viewer.user_id:
            return Outcome(await load_battle(viewer, request.battle_id), duplicate=True)
        raise ServiceError("CONFLICT", tr("This battle has its vote already."))
    # The leaderboards recomputed from rows in the background, so the next read finds them (a read computes them too).
    with contextlib.suppress(RedisError, OSError):
        await core_jobs.enqueue_once(
            services.arq,
            f"rate-battles:{view.battle['task']}:{stored['id']}",
            1.0,
            jobs.rate_battles,
            view.battle["task"],
            stored["id"],
        )
    return Outcome(await load_battle(viewer, request.battle_id), duplicate=False)


def _checked_vote(view: BattleView, request: BattleVoteRequest) -> tuple[BattleChoice, list[float]]:
    """The vote's choice (given, or implied by the ratings) and each side's rating, or InputError."""
    ratings, problems = preferences.checked_ratings(view.rating_spec, len(view.sides), request.ratings)
    if problems:
        raise invalid(tr("The ratings cannot be stored."), *problems)
    choice = request.choice
    if choice is None and ratings:
        assert view.rating_spec is not None  # ratings are taken only with a rating field
        choice = preferences.implied_choice(ratings, view.rules, preferences.lowest(view.rating_spec))
    allowed = ", ".join(c.name for c in view.choices)
    if choice is None:
        raise invalid(tr("Choose the better reply."), FieldProblem("choice", tr("must be one of {choices}", choices=allowed)))
    if choice not in view.choices:
        raise invalid(
            tr("That vote is not one this battle takes."), FieldProblem("choice", tr("must be one of {choices}", choices=allowed))
        )
    if problem := preferences.choice_problem(choice, ratings):
        raise invalid(tr("The ratings cannot be stored."), problem)
    return choice, ratings


async def load_battle(viewer: Principal, battle_id: int) -> BattleView:
    battle = await queries.BATTLE.row(id=battle_id)
    if battle is None or permissions.battle(viewer, battle) is not None:
        raise not_found(tr("That battle"))
    return await _view(viewer, battle)


async def _view(viewer: Principal, battle: dict) -> BattleView:
    loaded = await conversations.round_of(viewer, battle["round"], battle["context"])
    sides = await queries.SIDES.rows(battle=battle["id"])
    vote = await queries.VOTE.row(battle=battle["id"])
    continuation = await queries.CONTINUATION.row(battle=battle["id"]) if vote is not None else None
    battle_rules = _rules(loaded.config)
    field = battle_rules.rating_field
    spec = next((f for f in loaded.config.validator_fields if f.name == field), None) if field else None
    return BattleView({**battle, "task": loaded.round_row["task"]}, sides, vote, battle_rules, spec, continuation)


async def _view_of_used_client_id(viewer: Principal, battle: dict) -> BattleView:
    if permissions.battle(viewer, battle) is not None:
        raise ServiceError("CONFLICT", tr("This client UUID is already used."))
    return await _view(viewer, battle)


def _rules(config: TaskConfig) -> BattleConfig:
    battle = config.generative.battle if config.generative is not None else None
    if battle is None:
        raise invalid(
            tr("This task has no battles: talk to its target with sendMessage."),
            FieldProblem("roundId", tr("is not a battle task's round")),
        )
    return battle


def _check_cap(today: int, battle_rules: BattleConfig) -> None:
    """At most `votes_per_user_per_day` battles started, and as many votes, per author and task in a UTC day."""
    cap = battle_rules.votes_per_user_per_day
    if today >= cap:
        now = datetime.now(UTC)
        midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        raise rate_limited(
            tr("Today's limit of {count} battles on this task is reached; try again tomorrow (UTC).", count=cap),
            int((midnight - now).total_seconds()) + 1,
        )
