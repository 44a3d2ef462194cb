"""After a battle's vote, its author may go on talking to the side they preferred (docs/design.md §4.1d): that side's
conversation becomes an ordinary conversation of theirs (conversation(id), sendMessage under the task's turn limit,
submitConversation), while the other sides stay sealed. Idempotent on a client UUID; one side per battle."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from server.accounts.viewer import Principal
from server.annotation.battles import queries
from server.annotation.battles.service import BattleView, load_battle
from server.annotation.conversations import service as conversations
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr

LABELS = "ABCD"


@dataclass(frozen=True)
class ContinueRequest:
    battle_id: int
    client_id: uuid.UUID
    side: str  # A, B, C or D


@dataclass(frozen=True)
class Continued:
    view: BattleView
    conversation: conversations.Loaded
    duplicate: bool  # the client UUID was already used, or the side was continued already: nothing new was written


async def continue_battle(viewer: Principal, request: ContinueRequest) -> Continued:
    retried = await queries.CONTINUATION_BY_CLIENT_ID.row(client_id=request.client_id)
    if retried is not None:
        if (retried["battle"], retried["user"]) != (request.battle_id, viewer.user_id) or _label(retried) != request.side:
            raise ServiceError("CONFLICT", tr("This client UUID is already used."))
        return await _continued(viewer, request.battle_id, duplicate=True)
    view = await load_battle(viewer, request.battle_id)
    labels = list(LABELS[: len(view.sides)])
    if request.side not in labels:
        raise invalid(
            tr("That side is not one of this battle's."),
            FieldProblem("side", tr("must be one of {choices}", choices=", ".join(labels))),
        )
    position = labels.index(request.side)
    if view.vote is None:
        raise ServiceError("CONFLICT", tr("Vote first: then you may go on talking to the model you preferred."))
    if view.continuation is not None and view.continuation["position"] == position:
        return await _continued(viewer, request.battle_id, duplicate=True)
    if view.continuation is not None:
        raise ServiceError(
            "CONFLICT", tr("You already went on with Model {label} in this battle.", label=_label(view.continuation))
        )
    if not view.continuable:
        raise ServiceError("CONFLICT", tr("You judged every reply bad: start a new conversation instead."))
    if position not in view.continuable:
        preferred = ", ".join(LABELS[p] for p in view.continuable)
        raise invalid(
            tr("You may go on only with a model you preferred."),
            FieldProblem("side", tr("must be one of {choices}", choices=preferred)),
        )
    stored = await queries.INSERT_CONTINUATION.row(
        battle=request.battle_id, position=position, user=viewer.user_id, client_id=request.client_id
    )
    if stored is None:  # another request continued this battle (or used this UUID) a moment ago
        again = await queries.CONTINUATION.row(battle=request.battle_id)
        if again is not None and again["position"] == position:
            return await _continued(viewer, request.battle_id, duplicate=True)
        raise ServiceError("CONFLICT", tr("This client UUID is already used."))
    return await _continued(viewer, request.battle_id, duplicate=False)


async def _continued(viewer: Principal, battle_id: int, duplicate: bool) -> Continued:
    view = await load_battle(viewer, battle_id)
    assert view.continuation is not None  # read after its row committed
    side = view.sides[view.continuation["position"]]
    return Continued(view, await conversations.load_conversation(viewer, side["conversation"]), duplicate)


def _label(continuation: dict) -> str:
    return LABELS[continuation["position"]]
