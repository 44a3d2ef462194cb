"""submitConversation: the conversation becomes an example (its transcript, target and parameters), judged by the
task's rule."""

from __future__ import annotations

import uuid

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.conversations import submitting
from server.graphql.annotation.mutations.create_example import CreateExampleResult, submitted
from server.graphql.core.errors import mutation
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.input
class SubmitConversationInput:
    conversation_id: relay.GlobalID
    client_id: uuid.UUID = strawberry.field(description="Client-generated: the same UUID again returns the stored example.")
    categories: list[str] = strawberry.field(default_factory=list, description="Attack categories of the task's config.")
    fields: JSON | None = strawberry.field(default=None, description="The task's input fields, if it has any.")
    explanation: str = ""
    time_spent_ms: float | None = None
    model_failed: bool | None = strawberry.field(
        default=None,
        description="ask_user tasks: your answer to “did the model fail?”, stored as your claim (or claim later).",
    )
    suggestion_id: relay.GlobalID | None = strawberry.field(
        default=None, description="The conversation opened with this suggestion (suggestExamples): the example records it."
    )


@mutation(description="Submit a conversation with a generative target as an example.")
async def submit_conversation(info: Info, input: SubmitConversationInput) -> CreateExampleResult:
    viewer = await authorize_principal(info, permissions.annotate)
    data = submitting.ConversationSubmission(
        conversation_id=node_pk(input.conversation_id, "Conversation", "conversationId"),
        client_id=input.client_id,
        categories=list(input.categories),
        fields=input.fields,
        explanation=input.explanation,
        time_spent_ms=input.time_spent_ms,
        model_failed=input.model_failed,
        suggestion_id=node_pk(input.suggestion_id, "Suggestion", "suggestionId") if input.suggestion_id is not None else None,
    )
    return submitted(await submitting.submit_conversation(info.context.services, viewer, data))
