"""submitConversation: a conversation becomes an example — its transcript, the target's exact name and version and
the generation parameters — judged by the task's rule: the author's claim (ask_user; validators confirm) or the judge
model's scores (judge_model; an example whose judge is away stays pending and is judged once, later)."""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from typing import Any

from server.accounts.viewer import Principal
from server.annotation.conversations import queries
from server.annotation.conversations.judge import judge_score
from server.annotation.conversations.service import Loaded, load_conversation
from server.annotation.conversations.transcript import fooled_by_judge, stored_transcript
from server.annotation.examples import claiming
from server.annotation.examples.queries import example_by_id
from server.annotation.examples.service import Outcome, Submission, after_commit, stored_outcome
from server.annotation.examples.store import insert_example
from server.annotation.records import ReplyStatus
from server.annotation.suggestions import service as suggestions
from server.annotation.suggestions.generator import GENERATIVE_FIELD
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.core.inference import ModelUnavailable, Prediction
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.config import TaskConfig
from server.tasks.form_values import check_values

MAX_EXPLANATION = 2000


@dataclass(frozen=True)
class ConversationSubmission:
    conversation_id: int
    client_id: uuid.UUID
    categories: list[str]
    fields: Any
    explanation: str = ""
    time_spent_ms: float | None = None
    # ask_user: the author's answer to "did the model fail?", stored as their claim at once (None: claim later).
    model_failed: bool | None = None
    # The conversation was opened from this issued suggestion (docs/design.md §4.1e): the example records it.
    suggestion_id: int | None = None


async def submit_conversation(services: Services, viewer: Principal, data: ConversationSubmission) -> Outcome:
    return await submit_loaded(services, viewer, await load_conversation(viewer, data.conversation_id), data)


async def submit_loaded(
    services: Services, viewer: Principal, loaded: Loaded, data: ConversationSubmission, assisted_by: dict | None = None
) -> Outcome:
    """submitConversation on a conversation already read (and checked) by the caller: the viewer is its author.
    `assisted_by`: what an adversary run's example records (docs/design.md §4.1f); never from a client."""
    if loaded.conversation["example"] is not None:
        example = await example_by_id(loaded.conversation["example"])
        if example is not None and example["client_id"] == data.client_id:
            return stored_outcome(example, [], duplicate=True)
        raise ServiceError("CONFLICT", tr("This conversation was submitted already."))
    config, turns = loaded.config, loaded.turns
    if any(t["status"] == ReplyStatus.GENERATING for t in turns):
        raise ServiceError("CONFLICT", tr("The model is still answering: wait for its reply, or stop it."))
    if not any(t["reply"] for t in turns):
        raise invalid(tr("There is no reply to submit yet."), FieldProblem("conversationId", tr("has no reply")))
    stored_input = _stored_input(config, loaded, data)
    scores, pending_reason = await _judge(services, config, turns)
    fooled = fooled_by_judge(config, [s for s in scores if s is not None]) if scores is not None and not pending_reason else None
    target = loaded.conversation["target"]
    version = next((t["model_version"] for t in reversed(turns) if t["model_version"]), str(target.get("version") or ""))
    output = {
        "text_output": turns[-1]["reply"],
        "params": loaded.conversation["params"],
        "replies": [
            {"model": t["model_name"], "version": t["model_version"], "status": t["status"], "judge_score": s}
            for t, s in zip(turns, scores or [None] * len(turns))
        ],
    }
    if config.generative and config.generative.judge and config.fooling.metric == "judge_model":
        judge = config.generative.judge
        output["judge"] = {"model": judge.model, "label": judge.label, "threshold": judge.threshold}
    prediction = Prediction(str(target["name"]), version, output)
    assisted = assisted_by
    if data.suggestion_id is not None:  # compared with the opening message the author really sent
        opening = {GENERATIVE_FIELD: turns[0]["message"]}
        assisted = await suggestions.assistance(viewer.user_id, loaded.round_row["id"], data.suggestion_id, opening)
    submission = Submission(
        round_id=loaded.round_row["id"],
        context_id=loaded.context["id"],
        fields=None,
        intended=None,
        client_id=data.client_id,
        explanation=data.explanation,
        time_spent_ms=data.time_spent_ms,
        assisted_by=assisted,
    )
    round_row = {**loaded.round_row, "target_models": loaded.round_row["target_models"]}
    example, inserted = await insert_example(
        round_row,
        config,
        loaded.context,
        viewer.user_id,
        submission,
        stored_input,
        [prediction],
        fooled,
        pending_reason,
        [{**target, "version": version}],
    )
    assert example is not None
    if not inserted:
        return stored_outcome(example, [], duplicate=True)
    await queries.LINK_EXAMPLE.row(id=loaded.conversation["id"], example=example["id"])
    after_commit(services, example)
    if data.model_failed is not None and config.fooling.metric == "ask_user":
        claim = await claiming.claim_fooled(
            services, viewer, example["id"], data.model_failed, uuid.uuid5(data.client_id, "claim")
        )
        example = claim.example
    return stored_outcome(example, [prediction])


def _stored_input(config: TaskConfig, loaded: Loaded, data: ConversationSubmission) -> dict[str, Any]:
    assert config.generative is not None
    problems: list[FieldProblem] = []
    allowed = config.generative.attack_categories
    categories = list(data.categories)
    if any(c not in allowed for c in categories) or len(set(categories)) != len(categories):
        problems.append(
            FieldProblem("categories", tr("must be distinct categories of {choices}", choices=", ".join(allowed) or "—"))
        )
    fields, field_problems = check_values(
        config.input_fields,
        data.fields if data.fields is not None else {},
        asked=("always",),
        contexts=loaded.context["fields"],
        unknown=tr("is not an input field of this task"),
    )
    problems += field_problems
    if len(data.explanation) > MAX_EXPLANATION or text_problem(data.explanation):
        problems.append(FieldProblem("explanation", tr("at most {max} characters of text", max=MAX_EXPLANATION)))
    if data.time_spent_ms is not None and not 0 <= data.time_spent_ms <= 7 * 24 * 3600 * 1000:
        problems.append(FieldProblem("timeSpentMs", tr("must be between 0 and a week")))
    if problems:
        raise invalid(tr("The conversation cannot be submitted as it is."), *problems)
    return {"messages": stored_transcript(config, loaded.context["fields"], loaded.turns), "categories": categories, **fields}


async def _judge(services: Services, config: TaskConfig, turns: list[dict]) -> tuple[list[float | None] | None, str]:
    """judge_model: every reply's score (scored now where the judge was away while it streamed), or the reason
    the example must wait. Other rules: (None, "")."""
    generative = config.generative
    if config.fooling.metric != "judge_model" or generative is None or generative.judge is None:
        return None, ""
    scores: list[float | None] = []
    for turn in turns:
        score = turn["judge_score"]
        if score is None and turn["reply"]:
            try:
                score = await judge_score(services, generative.judge, turn["reply"])
            except ModelUnavailable as exc:
                return [t["judge_score"] for t in turns], str(exc)
            with contextlib.suppress(Exception):
                await queries.SET_JUDGE_SCORE.row(id=turn["id"], judge_score=score, judge_model=generative.judge.model)
        scores.append(score)
    return scores, ""
