"""Writing one machine-made example through the path a person's takes (docs/design.md §4.1f): the round's target is
asked, "fooled" decided, the example stored once per client UUID with its counters and announced to the validation
queue. Its author is the machine account; the round and the task are read as the owner who started the run sees them
(a hidden task's owner may run its generator). No rate limit here: the runner counts each write against the owner's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from server.accounts.viewer import Principal
from server.annotation import fooling
from server.annotation.adversary import rules
from server.annotation.conversations import queries as conversation_queries
from server.annotation.conversations import service as conversations
from server.annotation.conversations.replies import reply_now
from server.annotation.conversations.submitting import ConversationSubmission, submit_loaded
from server.annotation.conversations.transcript import messages, params_of
from server.annotation.examples import queries as example_queries
from server.annotation.examples.judging import ask_models, choose_targets, model_fields
from server.annotation.examples.service import Submission, after_commit, cached_config
from server.annotation.examples.store import insert_example
from server.annotation.records import ExampleRow, ReplyStatus
from server.annotation.validation_input import check_submission
from server.core.errors import ServiceError, not_found
from server.core.i18n import tr
from server.core.inference import ModelUnavailable
from server.core.jsonutil import from_json
from server.core.services import Services
from server.generation.backends import Caller
from server.generation.params import GenerationRequest


@dataclass(frozen=True)
class Author:
    owner_id: int  # who started the run: the rows are read as they see them, their endpoint budgets count the calls
    machine_id: int  # the machine account: the examples' author


@dataclass(frozen=True)
class Candidate:
    round_id: int
    context_id: int
    field_name: str
    text: str
    label: str | None
    client_id: uuid.UUID
    assisted_by: dict[str, Any]


class TargetDown(Exception):
    """The round's target could not answer: the run fails with this reason (what was written stays)."""


async def write_example(services: Services, author: Author, candidate: Candidate) -> tuple[ExampleRow, bool]:
    """(example, inserted): a classification task's example whose input field holds the candidate. INVALID_INPUT
    or DUPLICATE_EXAMPLE refuse the candidate; ROUND_CLOSED / NOT_FOUND end the run; TargetDown fails it."""
    rows = await example_queries.load_for_writing(candidate.round_id, candidate.context_id, candidate.client_id, author.owner_id)
    if not rows or not rows[0]["may_write"]:
        raise not_found(tr("That round"))
    row = rows[0]
    if row["client_id_used"]:  # written by an earlier attempt of the job
        existing = await example_queries.example_by_client_id(candidate.client_id)
        assert existing is not None
        return existing, False
    if row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    if row["context_id"] is None or row["context_round"] != row["id"]:
        raise not_found(tr("That context (in this round)"))
    config = cached_config(row["task"], row["config"])
    round_row = {"id": row["id"], "task": row["task"], "target_models": from_json(row["target_models"]) or []}
    context = {"id": row["context_id"], "fields": from_json(row["context_fields"]) or {}}
    labels = list(config.labels or [])
    fields = {candidate.field_name: candidate.text}
    targets = choose_targets(config, round_row["target_models"]) if round_row["target_models"] else []
    if not targets:
        raise TargetDown(tr("This round has no target model yet."))
    # The fields are checked before the target is asked; the label is settled once it has answered.
    stored_input = check_submission(config, context["fields"], fields, labels[0], None, "", None)
    try:
        predictions = await ask_models(services, config, targets, model_fields(config, context, stored_input))
    except ModelUnavailable as exc:
        raise TargetDown(str(exc)) from None
    intended = rules.intended_label(labels, candidate.label, predictions[0].output)
    stored_input = check_submission(config, context["fields"], fields, intended, None, "", None)
    fooled = fooling.fooled(config, intended, [p.output for p in predictions])
    submission = Submission(
        round_id=candidate.round_id,
        context_id=candidate.context_id,
        fields=fields,
        intended=intended,
        client_id=candidate.client_id,
        assisted_by=candidate.assisted_by,
    )
    example, inserted = await insert_example(
        round_row, config, context, author.machine_id, submission, stored_input, predictions, fooled, "", targets
    )
    assert example is not None
    if inserted:
        after_commit(services, example)
    return example, inserted


async def write_conversation(services: Services, author: Author, candidate: Candidate) -> tuple[ExampleRow, bool]:
    """A generative task's example: a one-exchange conversation of the machine account with the round's target (the
    candidate is the message), submitted as submitConversation does. On `ask_user` tasks the machine claims that the
    model failed (every exchange is an attack; the validators decide)."""
    done = await example_queries.example_by_client_id(candidate.client_id)
    if done is not None:
        return done, False
    owner, machine = Principal(user_id=author.owner_id), Principal(user_id=author.machine_id)
    opened = await conversations.open_round(owner, candidate.round_id, candidate.context_id)
    config = opened.config
    conversations.check_text(config, candidate.text)
    conversation_id, message_id = rules.conversation_client_ids(candidate.client_id)
    conversation = await conversation_queries.CONVERSATION_BY_CLIENT_ID.row(client_id=conversation_id)
    if conversation is None:
        target = choose_targets(config, opened.round_row["target_models"])[0]
        await conversations.new_conversation(machine, opened, conversation_id, target)
        conversation = await conversation_queries.CONVERSATION_BY_CLIENT_ID.row(client_id=conversation_id)
    assert conversation is not None
    turn = await conversation_queries.TURN_BY_CLIENT_ID.row(client_id=message_id)
    if turn is None:  # a new conversation takes its first message (or a concurrent attempt of the job just did)
        turn = await conversations.insert_turn(conversation, config, message_id, candidate.text)
        turn = turn or await conversation_queries.TURN_BY_CLIENT_ID.row(client_id=message_id)
        if turn is None:
            raise ServiceError("CONFLICT", tr("This conversation was submitted; start a new one."))
    caller = Caller(author.owner_id, opened.round_row["task"])
    if turn["status"] == ReplyStatus.GENERATING:
        request = GenerationRequest(tuple(messages(config, opened.context["fields"], [turn])), params_of(config))
        await reply_now(services, turn, conversation["target"], config, request, caller)
        turn = await conversation_queries.TURN.row(id=turn["id"])
        assert turn is not None
    if turn["status"] != ReplyStatus.DONE or not turn["reply"]:
        raise TargetDown(str(turn["error"] or tr("The model's reply failed.")))
    loaded = conversations.Loaded(conversation, config, opened.round_row, opened.context, [turn])
    submission = ConversationSubmission(
        conversation_id=conversation["id"],
        client_id=candidate.client_id,
        categories=[],
        fields=None,
        model_failed=True if config.fooling.metric == "ask_user" else None,
    )
    outcome = await submit_loaded(services, machine, loaded, submission, assisted_by=candidate.assisted_by)
    assert outcome.example is not None
    return outcome.example, not outcome.duplicate
