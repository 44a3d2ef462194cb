"""Checking what an annotator submits against the task's config. Pure functions, no I/O."""

from __future__ import annotations

from typing import Any

from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.core.storable import text_problem
from server.tasks.config import TaskConfig
from server.tasks.form_values import check_values

MAX_EXPLANATION = 2000
MAX_ANSWER = 1000


def _text_problem(value: Any, max_length: int) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return tr("must be non-empty text")
    if len(value) > max_length:
        return tr("longer than {max} characters", max=max_length)
    return text_problem(value)


def check_submission(
    config: TaskConfig,
    context_fields: dict[str, str],
    fields: Any,
    intended: Any,
    answer_start: int | None,
    explanation: str,
    time_spent_ms: float | None,
) -> dict[str, Any]:
    """Return the example's stored input (annotator fields + label or answer) or raise InputError."""
    if config.kind == "generative":
        raise invalid(
            tr("This task's examples are conversations: send messages (sendMessage), then submit the conversation."),
            FieldProblem("roundId", tr("is a generative task's round")),
        )
    if not isinstance(fields, dict):
        raise invalid(tr("`fields` must be an object."), FieldProblem("fields", tr("must be an object")))
    # The fields asked before the verdict; those asked after it come with answerFollowUp.
    stored, problems = check_values(
        config.input_fields, fields, asked=("always",), contexts=context_fields, unknown=tr("is not an input field of this task")
    )
    if config.kind == "classification":
        if intended not in (config.labels or []):
            problems.append(FieldProblem("label", tr("must be one of {labels}", labels=", ".join(config.labels or []))))
        stored["label"] = intended
    else:
        problem = _text_problem(intended, MAX_ANSWER)
        passage = context_fields.get(config.answer_context_field or "", "")
        if problem:
            problems.append(FieldProblem("answer", problem))
        elif answer_start is not None:
            if not (answer_start >= 0 and passage[answer_start : answer_start + len(intended)] == intended):
                problems.append(FieldProblem("answerStart", tr("the answer is not at this position of the passage")))
        elif intended not in passage:
            problems.append(FieldProblem("answer", tr("must be a span of the passage")))
        if answer_start is None and not problem and intended in passage:
            answer_start = passage.index(intended)
        stored["answer"] = intended
        stored["answer_start"] = answer_start
    if len(explanation) > MAX_EXPLANATION or text_problem(explanation):
        problems.append(FieldProblem("explanation", tr("at most {max} characters of text", max=MAX_EXPLANATION)))
    if time_spent_ms is not None and not 0 <= time_spent_ms <= 7 * 24 * 3600 * 1000:
        problems.append(FieldProblem("timeSpentMs", tr("must be between 0 and a week")))
    if problems:
        raise invalid(tr("The example is not valid."), *problems)
    return stored


def check_follow_up(config: TaskConfig, context_fields: dict[str, Any], fooled: bool, fields: Any) -> dict[str, Any]:
    """The values of the fields asked after the verdict (`show_when` fooled or not_fooled), or raise InputError."""
    when = "fooled" if fooled else "not_fooled"
    if not any(spec.show_when == when for spec in config.input_fields):
        raise invalid(
            tr("This task asks nothing more after this verdict."),
            FieldProblem("fields", tr("the task has no fields for {when}", when=when)),
        )
    stored, problems = check_values(
        config.input_fields, fields, asked=(when,), contexts=context_fields, unknown=tr("is not an input field of this task")
    )
    if problems:
        raise invalid(tr("The answers are not valid."), *problems)
    return stored


def check_vote_fields(config: TaskConfig, context_fields: dict[str, Any], label: str, fields: Any) -> dict[str, Any]:
    """The validator fields' values for a vote with this label (correct | incorrect | flagged), or raise InputError."""
    stored, problems = check_values(
        config.validator_fields, {} if fields is None else fields, asked=("always", label), contexts=context_fields
    )
    if problems:
        raise invalid(tr("The vote's fields are not valid."), *problems)
    return stored
