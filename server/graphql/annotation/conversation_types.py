"""GraphQL shapes of conversations with a generative target (server/annotation/conversations/)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry
from strawberry import relay
from strawberry.scalars import JSON

from server.annotation.conversations.service import Loaded
from server.annotation.records import ReplyStatus as DomainReplyStatus


@strawberry.enum(description="A reply of the target to one message.")
class ReplyStatus(Enum):
    GENERATING = "generating"
    DONE = "done"
    STOPPED = "stopped"  # its author stopped it; the text so far is kept
    FAILED = "failed"  # the target stopped answering; the text so far is kept, and it may be retried (retryReply)


@strawberry.type(description="An earlier attempt at a reply, kept when the reply was asked again.")
class ReplyAttempt:
    reply: str
    status: ReplyStatus
    error: str


@strawberry.type(description="One exchange: the author's message and the target's reply (streamed by replyStream).")
class ConversationTurn:
    id: relay.GlobalID
    position: int
    message: str
    reply: str = strawberry.field(description="Plain text: render it as text, never as HTML or markdown.")
    status: ReplyStatus
    error: str = strawberry.field(description="Why the reply failed, readable by its author.")
    model_name: str
    model_version: str
    judge_score: float | None = strawberry.field(description="judge_model tasks: the judge's score of this reply.")
    attempts: list[ReplyAttempt]
    started_at: datetime
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: dict) -> ConversationTurn:
        return cls(
            id=relay.GlobalID("ConversationTurn", str(row["id"])),
            position=row["position"],
            message=row["message"],
            reply=row["reply"],
            status=ReplyStatus(DomainReplyStatus(row["status"]).value),
            error=row["error"],
            model_name=row["model_name"],
            model_version=row["model_version"],
            judge_score=row["judge_score"],
            attempts=[
                ReplyAttempt(
                    reply=str(a.get("reply", "")), status=ReplyStatus(a.get("status", "failed")), error=str(a.get("error", ""))
                )
                for a in row["attempts"] or []
            ],
            started_at=row["started_at"],
            finished_at=row["finished_at"],
        )


@strawberry.type(description="A conversation of the viewer's with a round's generative target.")
class Conversation:
    id: relay.GlobalID
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    target_model: str = strawberry.field(description="The target every reply comes from (chosen when it started).")
    params: JSON = strawberry.field(description="The generation parameters: max_tokens, temperature, seed, stop.")
    turns: list[ConversationTurn]
    messages_left: int = strawberry.field(description="How many more messages the task allows in it.")
    example_id: relay.GlobalID | None = strawberry.field(description="Once submitted: the example it became.")

    @classmethod
    def from_rows(cls, conversation: dict, turns: list[dict], turn_limit: int) -> Conversation:
        return cls(
            id=relay.GlobalID("Conversation", str(conversation["id"])),
            round_id=relay.GlobalID("Round", str(conversation["round"])),
            context_id=relay.GlobalID("Context", str(conversation["context"])),
            target_model=str(conversation["target"].get("name", "")),
            params=conversation["params"],
            turns=[ConversationTurn.from_row(t) for t in turns],
            messages_left=max(0, turn_limit - len(turns)),
            example_id=relay.GlobalID("Example", str(conversation["example"])) if conversation["example"] else None,
        )


@strawberry.type(description="Part of a reply as it streams; the last event has `done` and the reply's status.")
class ReplyChunk:
    turn_id: relay.GlobalID
    text: str = strawberry.field(
        description="Text generated since the previous event (the first event of a subscription carries everything so far)."
    )
    done: bool
    status: ReplyStatus
    error: str
    judge_score: float | None
    model_version: str
    truncated: bool = strawberry.field(description="The reply reached the platform's length bound and was cut there.")


def conversation_of(loaded: Loaded) -> Conversation:
    generative = loaded.config.generative
    return Conversation.from_rows(loaded.conversation, loaded.turns, generative.turn_limit if generative else 0)
