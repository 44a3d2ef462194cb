"""Root fields of conversations with a generative target: the conversation, and the live stream of a reply."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.conversations import relay as reply_relay
from server.annotation.conversations import service
from server.annotation.records import ReplyStatus as DomainReplyStatus
from server.graphql.annotation.conversation_types import Conversation, ReplyChunk, ReplyStatus, conversation_of
from server.graphql.annotation.mutations import retry_reply, send_message, stop_reply, submit_conversation
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.type
class ConversationQueries:
    @strawberry.field(description="One of your conversations with a generative target, with every turn.")
    async def conversation(self, info: Info, id: relay.GlobalID) -> Conversation:
        viewer = await authorize_principal(info, permissions.annotate)
        return conversation_of(await service.load_conversation(viewer, node_pk(id, "Conversation", "id")))


@strawberry.type
class ConversationMutations:
    send_message = send_message.send_message
    stop_reply = stop_reply.stop_reply
    retry_reply = retry_reply.retry_reply
    submit_conversation = submit_conversation.submit_conversation


@strawberry.type
class ConversationSubscriptions:
    @strawberry.subscription(
        description="A reply as the target writes it: everything so far, then each new piece, then its end (done)."
    )
    async def reply_stream(self, info: Info, turn_id: relay.GlobalID) -> AsyncGenerator[ReplyChunk, None]:
        viewer = await authorize_principal(info, permissions.annotate)
        pk = node_pk(turn_id, "ConversationTurn", "turnId")
        turn = await service.own_turn(viewer, pk)
        blind = turn["blind"]  # a battle side's reply: its model's version is not told either
        services = info.context.services
        gid = relay.GlobalID("ConversationTurn", str(pk))
        async for event in reply_relay.follow(services.redis, services.hub, reply_relay.stream_id(turn)):
            if event is None:  # no replay: finished long ago, or nothing sent yet
                info.context.fresh_reads()
                row = await service.own_turn(viewer, pk)
                if row["status"] != DomainReplyStatus.GENERATING:
                    yield _final(gid, row, blind)
                    return
                continue
            if event.end is None:
                yield ReplyChunk(
                    turn_id=gid,
                    text=event.text,
                    done=False,
                    status=ReplyStatus.GENERATING,
                    error="",
                    judge_score=None,
                    model_version="",
                    truncated=False,
                )
                continue
            end = event.end
            yield ReplyChunk(
                turn_id=gid,
                text="",
                done=True,
                status=ReplyStatus(str(end.get("status", "failed"))),
                error=str(end.get("error", "")),
                judge_score=end.get("judge_score"),
                model_version="" if blind else str(end.get("model_version", "")),
                truncated=bool(end.get("truncated")),
            )
            return


def _final(gid: relay.GlobalID, row: dict, blind: bool) -> ReplyChunk:
    return ReplyChunk(
        turn_id=gid,
        text=row["reply"],
        done=True,
        status=ReplyStatus(row["status"]),
        error=row["error"],
        judge_score=row["judge_score"],
        model_version="" if blind else row["model_version"],
        truncated=False,
    )
