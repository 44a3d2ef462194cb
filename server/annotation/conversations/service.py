"""Conversations with a generative target: send a message (its reply streams, replies.py), stop or retry a
reply, submit the conversation as an example. Every write is idempotent on a client UUID."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from typing import Any

from server import permissions
from server.accounts.viewer import Principal
from server.annotation.conversations import queries, relay
from server.annotation.conversations.replies import start_reply
from server.annotation.conversations.transcript import messages, params_of
from server.annotation.examples.judging import choose_targets
from server.annotation.examples.service import cached_config
from server.annotation.records import ReplyStatus
from server.core import rate_limits
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import to_json
from server.core.rate_limits import Action
from server.core.services import Services
from server.core.storable import text_problem
from server.generation.backends import Caller
from server.generation.params import GenerationRequest
from server.tasks.config import TaskConfig


@dataclass(frozen=True)
class Message:
    round_id: int
    context_id: int
    conversation_id: int | None  # None: the message starts a conversation
    client_id: uuid.UUID
    text: str


@dataclass(frozen=True)
class Loaded:
    conversation: dict
    config: TaskConfig
    round_row: dict
    context: dict
    turns: list[dict]


@dataclass(frozen=True)
class Sent:
    loaded: Loaded  # the conversation with every turn, the new one included
    turn: dict
    duplicate: bool  # the client UUID was already used: nothing new was written or asked


async def send_message(services: Services, viewer: Principal, message: Message, address: str | None = None) -> Sent:
    retried = await queries.TURN_BY_CLIENT_ID.row(client_id=message.client_id)
    if retried is not None:
        return Sent(await load_conversation(viewer, retried["conversation"]), retried, duplicate=True)
    # Counted first, given back when refused: a message over the limit starts no conversation.
    taken = await rate_limits.take(
        services.redis, services.settings, Action.SEND_MESSAGE, account=viewer.user_id, address=address
    )
    try:
        loaded = (
            await _start(viewer, message)
            if message.conversation_id is None
            else await load_conversation(viewer, message.conversation_id)
        )
        _check_open(loaded)
        check_text(loaded.config, message.text)
        turn = await insert_turn(loaded.conversation, loaded.config, message.client_id, message.text)
        if turn is None:
            raise await _why_no_turn(viewer, loaded, message.client_id)
    except ServiceError:
        await taken.give_back(services.redis)
        raise
    loaded = replace(loaded, turns=[*loaded.turns, turn])
    ask(services, viewer, loaded, turn)
    return Sent(loaded, turn, duplicate=False)


async def stop_reply(services: Services, viewer: Principal, turn_id: int) -> dict:
    """Ask the process generating the reply to stop; the text so far is kept (status stopped)."""
    turn = await _own_turn(viewer, turn_id)
    if turn["status"] == ReplyStatus.GENERATING:
        await relay.request_stop(services.redis, relay.stream_id(turn))
    return turn


async def retry_reply(services: Services, viewer: Principal, turn_id: int, address: str | None = None) -> dict:
    """A failed or stopped reply asked again (its attempt so far is kept with the turn)."""
    turn = await _own_turn(viewer, turn_id)
    # A battle's reply is what its vote judged: not asked again, even in a side continued after the vote.
    if turn["blind"] or (turn["battle_side"] and turn["position"] == 0):
        raise ServiceError("CONFLICT", tr("A battle's replies are not asked again: vote on what they said."))
    loaded = await load_conversation(viewer, turn["conversation"])
    _check_open(loaded)
    await rate_limits.take(services.redis, services.settings, Action.SEND_MESSAGE, account=viewer.user_id, address=address)
    retried = await queries.RETRY_TURN.row(id=turn_id)
    if retried is None:
        raise ServiceError("CONFLICT", tr("Only the last reply, once it failed or was stopped, can be asked again."))
    ask(services, viewer, loaded, retried)
    return retried


def ask(services: Services, viewer: Principal, loaded: Loaded, turn: dict) -> None:
    """Start generating the reply to `turn` (after the conversation's earlier turns) in this process's background."""
    earlier = [t for t in loaded.turns if t["position"] < turn["position"]]
    request = GenerationRequest(
        tuple(messages(loaded.config, loaded.context["fields"], [*earlier, turn])), params_of(loaded.config)
    )
    start_reply(
        services, turn, loaded.conversation["target"], loaded.config, request, Caller(viewer.user_id, loaded.round_row["task"])
    )


async def load_conversation(viewer: Principal, conversation_id: int) -> Loaded:
    """The viewer's conversation with every turn. A battle's side is not one: it is read through its battle, which
    hides its target until the vote (server/annotation/battles/)."""
    conversation = await queries.CONVERSATION.row(id=conversation_id)
    if conversation is None or permissions.converse(viewer, conversation) is not None or conversation["in_battle"]:
        raise not_found(tr("That conversation"))
    return await _loaded(viewer, conversation)


async def _loaded(viewer: Principal, conversation: dict) -> Loaded:
    round_row = await _round(viewer, conversation["round"], conversation["context"])
    turns = await queries.TURNS.rows(conversation=conversation["id"])
    return Loaded(conversation, _config(round_row), round_row, _context(round_row), turns)


async def own_turn(viewer: Principal, turn_id: int) -> dict:
    """The viewer's turn; `blind` when it is a battle side's, whose model name and version are then blanked."""
    return await _own_turn(viewer, turn_id)


async def _own_turn(viewer: Principal, turn_id: int) -> dict:
    turn = await queries.TURN.row(id=turn_id)
    if turn is None:
        raise not_found(tr("That reply"))
    conversation = await queries.CONVERSATION.row(id=turn["conversation"])
    if conversation is None or permissions.converse(viewer, conversation) is not None:
        raise not_found(tr("That reply"))
    side = conversation["battle_side"]
    if conversation["in_battle"]:  # a blind vote: no reader learns a side's model from its reply
        return {**turn, "model_name": "", "model_version": "", "blind": True, "battle_side": side}
    return {**turn, "blind": False, "battle_side": side}


async def _start(viewer: Principal, message: Message) -> Loaded:
    opened = await open_round(viewer, message.round_id, message.context_id)
    check_text(opened.config, message.text)  # before the conversation is stored: a refused message writes nothing
    target = choose_targets(opened.config, opened.round_row["target_models"])[0]
    row = await new_conversation(viewer, opened, message.client_id, target)
    if row is None:  # the same first message a moment ago, from another request
        row = await queries.CONVERSATION_BY_CLIENT_ID.row(client_id=message.client_id)
        if row is None or permissions.converse(viewer, row) is not None or row["in_battle"]:
            raise ServiceError("CONFLICT", tr("This client UUID is already used."))
    return replace(opened, conversation=row)


async def open_round(viewer: Principal, round_id: int, context_id: int) -> Loaded:
    """A generative round the viewer may start a conversation (or a battle) in, with the context: a Loaded with no
    conversation yet (an empty dict) and no turns."""
    opened = await round_of(viewer, round_id, context_id)
    config, round_row = opened.config, opened.round_row
    if round_row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    if config.kind != "generative":
        raise invalid(
            tr("This task's examples are written, not talked: use createExample."),
            FieldProblem("roundId", tr("is not a generative task's round")),
        )
    if not round_row["target_models"]:
        raise ServiceError("MODEL_UNAVAILABLE", tr("This round has no target model yet."))
    return opened


async def round_of(viewer: Principal, round_id: int, context_id: int) -> Loaded:
    """A round (open or closed) of a task the viewer may write in, with its config and the context: a Loaded with no
    conversation yet (an empty dict) and no turns."""
    round_row = await _round(viewer, round_id, context_id)
    return Loaded({}, _config(round_row), round_row, _context(round_row), [])


async def new_conversation(viewer: Principal, opened: Loaded, client_id: uuid.UUID, target: dict) -> dict | None:
    """A conversation of the viewer's with `target` in the opened round; None when the client UUID is taken."""
    return await queries.INSERT_CONVERSATION.row(
        client_id=client_id,
        round=opened.round_row["id"],
        context=opened.context["id"],
        user=viewer.user_id,
        target=to_json(target),
        params=to_json(params_of(opened.config).stored()),
    )


async def insert_turn(conversation: dict, config: TaskConfig, client_id: uuid.UUID, text: str) -> dict | None:
    """The conversation's next exchange, its reply generating (not started: `ask` starts it); None when refused (a
    reply still generating, the turn limit, a submitted conversation, a used client UUID)."""
    assert config.generative is not None
    return await queries.INSERT_TURN.row(
        conversation=conversation["id"],
        client_id=client_id,
        message=text,
        model_name=conversation["target"]["name"][:200],
        limit=config.generative.turn_limit,
    )


async def store_written_reply(turn: dict, text: str) -> dict:
    """A reply no model generates (a check battle's check side, battles/checks.py): stored done at once, in the
    caller's transaction; its replyStream then ends with the whole text, as any finished reply's does."""
    row = await queries.FINISH_TURN.row(
        id=turn["id"], reply=text, status=ReplyStatus.DONE, error="", model_version="", judge_score=None, judge_model=""
    )
    assert row is not None  # a turn inserted a moment ago in the same transaction is still generating
    return row


async def _round(viewer: Principal, round_id: int, context_id: int) -> dict:
    row = await queries.ROUND_AND_CONTEXT.row(round_id=round_id, context_id=context_id, user=viewer.user_id)
    if row is None or not row["may_write"]:
        raise not_found(tr("That round"))
    if row["context_id"] is None or row["context_round"] != row["id"]:
        raise not_found(tr("That context (in this round)"))
    return row


def _config(round_row: dict) -> TaskConfig:
    return cached_config(round_row["task"], round_row["config_text"])


def _context(round_row: dict) -> dict[str, Any]:
    return {"id": round_row["context_id"], "fields": round_row["context_fields"] or {}}


def _check_open(loaded: Loaded) -> None:
    if loaded.conversation["example"] is not None:
        raise ServiceError("CONFLICT", tr("This conversation was submitted; start a new one."))
    if loaded.round_row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))


def check_text(config: TaskConfig, text: str) -> None:
    assert config.generative is not None
    limit = config.generative.max_message_length
    if not text.strip():
        raise invalid(tr("The message is empty."), FieldProblem("message", tr("must be non-empty text")))
    if len(text) > limit:
        raise invalid(tr("The message is too long."), FieldProblem("message", tr("longer than {max} characters", max=limit)))
    problem = text_problem(text)
    if problem:
        raise invalid(tr("The message cannot be stored."), FieldProblem("message", problem))


async def _why_no_turn(viewer: Principal, loaded: Loaded, client_id: uuid.UUID) -> ServiceError:
    fresh = await load_conversation(viewer, loaded.conversation["id"])
    if await queries.TURN_BY_CLIENT_ID.row(client_id=client_id) is not None:
        return ServiceError("CONFLICT", tr("This client UUID is already used."))
    if fresh.conversation["example"] is not None:
        return ServiceError("CONFLICT", tr("This conversation was submitted; start a new one."))
    if any(t["status"] == ReplyStatus.GENERATING for t in fresh.turns):
        return ServiceError("CONFLICT", tr("The model is still answering: wait for its reply, or stop it."))
    assert fresh.config.generative is not None
    return ServiceError(
        "CONFLICT",
        tr("This conversation has reached its limit of {count} messages: submit it.", count=fresh.config.generative.turn_limit),
    )
