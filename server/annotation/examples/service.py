"""Writing examples: ask the round's target model(s), decide "fooled", store once, count.

The model call happens before the transaction (it may take seconds); one statement
(queries.INSERT_EXAMPLE, through store.py) then inserts the example idempotently on its client UUID
and moves the round, context and user counters with it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from server.annotation import fooling
from server.annotation.examples import jobs as pending_jobs
from server.annotation.examples import queries
from server.annotation.examples.announce import example_written
from server.annotation.examples.judging import ask_models, choose_targets, model_fields, status_after_verdict, verdict_of
from server.annotation.examples.queries import example_by_client_id
from server.annotation.examples.store import insert_example
from server.annotation.records import ExampleRow, ExampleStatus, Verdict
from server.annotation.suggestions import service as suggestions
from server.annotation.validation_input import check_submission
from server.campaigns.work import quota_applies
from server.core import jobs, rate_limits
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.inference import ModelUnavailable, Prediction
from server.core.jsonutil import from_json
from server.core.rate_limits import Action, Taken
from server.core.services import Services
from server.tasks.config import TaskConfig
from server.webhooks import dispatch as webhooks

log = logging.getLogger("dynabench.annotation")


@dataclass(frozen=True)
class Submission:
    round_id: int
    context_id: int
    fields: Any
    intended: Any  # the label (classification) or the answer text (extractive QA)
    client_id: uuid.UUID | None
    answer_start: int | None = None
    explanation: str = ""
    time_spent_ms: float | None = None
    sandbox: bool = False
    suggestion_id: int | None = None  # written from this issued suggestion (docs/design.md §4.1e)
    assisted_by: dict[str, Any] | None = None  # what the example records of it: set here, never by the client


@dataclass
class Outcome:
    verdict: Verdict
    message: str
    example: ExampleRow | None = None  # None in sandbox mode
    predictions: list[Prediction] = field(default_factory=list)
    duplicate: bool = False


class _AlreadyStored(Exception):
    """The client UUID is already taken: answer from the stored example."""


async def _load(submission: Submission, user_id: int) -> tuple[dict, TaskConfig, dict]:
    """Round, task config, context and whether the client UUID is taken, in one round trip."""
    rows = await queries.load_for_writing(submission.round_id, submission.context_id, submission.client_id, user_id)
    if not rows or not rows[0]["may_write"]:  # a hidden task's round is as good as missing to others
        raise not_found(tr("That round"))
    if rows[0]["client_id_used"]:
        raise _AlreadyStored
    row = rows[0]
    if row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    if row["context_id"] is None or row["context_round"] != row["id"]:
        raise not_found(tr("That context (in this round)"))
    round_row = {
        "id": row["id"],
        "task": row["task"],
        "target_models": from_json(row["target_models"]),
        "config_text": row["config"],
    }
    context = {"id": row["context_id"], "fields": from_json(row["context_fields"])}
    return round_row, cached_config(row["task"], row["config"]), context


_CONFIGS: dict[tuple[int, str], TaskConfig] = {}


def cached_config(task_id: int, raw: str) -> TaskConfig:
    """Parsed task configs, keyed by their text: parsing is pure, and configs are read on every write."""
    key = (task_id, raw)
    config = _CONFIGS.get(key)
    if config is None:
        if len(_CONFIGS) > 1000:
            _CONFIGS.clear()
        config = _CONFIGS[key] = TaskConfig.model_validate_json(raw)
    return config


async def create_example(services: Services, user_id: int, submission: Submission, address: str | None = None) -> Outcome:
    """Judge and store one example of this user, sent from this client address (for the rate limits)."""
    if submission.client_id is None and not submission.sandbox:
        raise invalid(tr("A client UUID is required."), FieldProblem("clientId", tr("is required unless sandbox")))
    if submission.suggestion_id is not None and not submission.sandbox:
        assisted = await suggestions.assistance(user_id, submission.round_id, submission.suggestion_id, submission.fields)
        submission = replace(submission, assisted_by=assisted)
    # The model is asked only once the rate limits allow it; a refusal waits until the duplicate check below
    # (a retried client UUID is answered from the stored example, however many were sent meanwhile).
    taken, refusal = await _take_rate(services, user_id, address)
    early = _ask_early(services, submission) if refusal is None else None
    if early is not None and not submission.sandbox:
        outcome = await _create_on_remembered_rows(services, user_id, submission, early)
        if outcome is not None:
            return outcome
    try:
        try:
            prepared = await _load(submission, user_id)
        except _AlreadyStored:
            if not submission.sandbox:
                # A retried client UUID is answered from the stored example, without asking the model again.
                existing = await _existing(submission.client_id, user_id)
                if existing is not None:
                    await taken.give_back(services.redis)  # it was sent before: it does not count again
                    return existing
            prepared = await _load(replace(submission, client_id=None), user_id)
        _remember(prepared)
        round_row, config, context = prepared
        if early is not None and early.prepared_like(prepared):
            # The same config and context: the early check of the input stands.
            stored_input, targets, asking, early = early.stored_input, early.targets, early.task, None
        else:
            stored_input, asking = _checked_input(config, context, submission), None
        if refusal is not None:
            raise refusal
        if asking is None:
            targets = choose_targets(config, round_row["target_models"])
            asking = ask_models(services, config, targets, model_fields(config, context, stored_input))
    except ServiceError:
        await taken.give_back(services.redis)  # refused before the model was asked: it does not count
        raise
    finally:
        if early is not None:
            early.cancel()
    predictions, fooled, pending_reason = await _judge(asking, config, submission)
    if submission.sandbox:
        verdict = verdict_of(fooled, status_after_verdict(config, fooled, answered=bool(predictions)))
        return Outcome(verdict, _message(verdict, sandbox=True), None, predictions)
    example, inserted = await insert_example(
        round_row, config, context, user_id, submission, stored_input, predictions, fooled, pending_reason, targets
    )
    if not inserted:
        await taken.give_back(services.redis)
        return stored_outcome(example, [], duplicate=True)
    after_commit(services, example)
    return stored_outcome(example, predictions)


async def _judge(asking: asyncio.Future, config: TaskConfig, submission: Submission) -> tuple[list[Prediction], bool | None, str]:
    """The model's answers and the verdict; a model that cannot answer leaves the example pending."""
    try:
        predictions = await asking
    except ModelUnavailable as exc:
        if submission.sandbox:
            raise ServiceError(
                "MODEL_UNAVAILABLE", tr("The model could not answer: {reason}. Try again shortly.", reason=str(exc))
            ) from None
        return [], None, str(exc)
    return predictions, fooling.fooled(config, str(submission.intended), [p.output for p in predictions]), ""


async def _create_on_remembered_rows(
    services: Services, user_id: int, submission: Submission, early: _EarlyAsk
) -> Outcome | None:
    """The common case in one statement: the example is judged on the rows this process last read, and
    the insert holds only if they are still current (round open, same targets, config and context
    fields). None — a changed row, a closed round, a retried client UUID — means: take the full path,
    which reads everything afresh and says precisely what is wrong."""
    round_row, config, context = early.prepared
    # Whether a campaign quota applies is read while the model answers (it decides only how the insert goes).
    quota = asyncio.ensure_future(quota_applies(user_id, round_row["id"])) if not config.duplicates.enabled else None
    try:
        predictions, fooled, pending_reason = await _judge(early.task, config, submission)
        example, inserted = await insert_example(
            round_row,
            config,
            context,
            user_id,
            submission,
            early.stored_input,
            predictions,
            fooled,
            pending_reason,
            early.targets,
            guard=True,
            campaign_quota=quota,
        )
    except asyncio.CancelledError:
        early.cancel()
        raise
    finally:
        if quota is not None and not quota.done():
            quota.cancel()
            quota.add_done_callback(lambda t: t.cancelled() or t.exception())
    if example is None or not inserted:
        return None
    after_commit(services, example)
    return stored_outcome(example, predictions)


# Speculation: the model call need not wait for the round/context read. Each process remembers what
# the last reads of rounds and contexts returned (contexts also from nextContext) and asks the model
# with that while the fresh read runs; the answer is used only if the fresh read agrees (same targets,
# config and context fields), so every check still happens on current rows, and a disagreement (a new
# round's targets, a changed config) costs only a wasted model call.
_ROUNDS: dict[int, tuple[dict, TaskConfig]] = {}
_CONTEXTS: dict[int, dict] = {}


def remember_context(context: dict) -> None:
    """A context row just read (e.g. by nextContext): its fields are likely to be written against next."""
    fields = from_json(context.get("fields"))
    if isinstance(fields, dict):
        _bounded_put(_CONTEXTS, context["id"], {"id": context["id"], "fields": fields})


def _remember(prepared: tuple[dict, TaskConfig, dict]) -> None:
    round_row, config, context = prepared
    _bounded_put(_ROUNDS, round_row["id"], (round_row, config))
    _bounded_put(_CONTEXTS, context["id"], context)


def _bounded_put(cache: dict, key: int, value) -> None:
    if len(cache) >= 20_000:
        cache.clear()
    cache[key] = value


@dataclass
class _EarlyAsk:
    prepared: tuple[dict, TaskConfig, dict]
    stored_input: dict
    targets: list[dict]
    task: asyncio.Future

    def prepared_like(self, fresh: tuple[dict, TaskConfig, dict]) -> bool:
        (old_round, old_config, old_context), (round_row, config, context) = self.prepared, fresh
        return (
            old_config is config
            and old_round["target_models"] == round_row["target_models"]
            and old_context["fields"] == context["fields"]
        )

    def cancel(self) -> None:
        self.task.cancel()
        # Its outcome (or cancellation) is deliberately ignored.
        self.task.add_done_callback(lambda t: t.cancelled() or t.exception())


def _ask_early(services: Services, submission: Submission) -> _EarlyAsk | None:
    known_round, context = _ROUNDS.get(submission.round_id), _CONTEXTS.get(submission.context_id)
    if known_round is None or context is None:
        return None
    (round_row, config), prepared = known_round, (*known_round, context)
    try:
        stored_input = _checked_input(config, context, submission)
    except ServiceError:
        return None  # the fresh path reports it
    targets = choose_targets(config, round_row["target_models"])
    task = asyncio.ensure_future(ask_models(services, config, targets, model_fields(config, context, stored_input)))
    return _EarlyAsk(prepared, stored_input, targets, task)


def _checked_input(config: TaskConfig, context: dict, submission: Submission) -> dict:
    return check_submission(
        config,
        context["fields"],
        submission.fields,
        submission.intended,
        submission.answer_start,
        submission.explanation,
        submission.time_spent_ms,
    )


async def _take_rate(services: Services, user_id: int, address: str | None) -> tuple[Taken, ServiceError | None]:
    """Count the example against the limits per account and per address (sandbox included), or the refusal."""
    try:
        taken = await rate_limits.take(
            services.redis,
            services.settings,
            Action.SUBMIT_EXAMPLE,
            account=user_id,
            address=address,
            note=tr(" (unsent examples stay in your outbox)"),
        )
    except ServiceError as refusal:
        return Taken(), refusal
    return taken, None


def stored_outcome(example: ExampleRow, predictions: list[Prediction], duplicate: bool = False) -> Outcome:
    verdict = verdict_of(example["fooled"], example["status"])
    return Outcome(verdict, _message(verdict), example, predictions, duplicate=duplicate)


def _message(verdict: Verdict, sandbox: bool = False) -> str:
    if verdict == Verdict.PENDING:
        return tr(
            "Saved. The model is not answering right now, so your example is pending; "
            "it will be judged as soon as the model is back."
        )
    if verdict == Verdict.AWAITING_CLAIM:  # fooling ask_user: the annotator judges the answer (claimFooled)
        if sandbox:
            return tr("Sandbox (not saved): Here is the model's answer. Did the model get it wrong?")
        return tr("Here is the model's answer. Did the model get it wrong?")
    if verdict == Verdict.FOOLED:
        return tr("Sandbox (not saved): You fooled the model!") if sandbox else tr("You fooled the model!")
    return tr("Sandbox (not saved): The model got it right. Try again?") if sandbox else tr("The model got it right. Try again?")


async def _existing(client_id: uuid.UUID, user_id: int) -> Outcome | None:
    row = await example_by_client_id(client_id)
    if row is None:
        return None
    if row["user"] != user_id:
        raise ServiceError("CONFLICT", tr("This client UUID belongs to another user's example."))
    return stored_outcome(row, [], duplicate=True)


def after_commit(services: Services, example: ExampleRow) -> None:
    """Live views are told once the write has committed, without the writer waiting for Redis; a
    pending example is re-checked shortly."""
    example_written(services, example)
    webhooks.emit_soon(services, webhooks.example_created(example))  # only queued if a hook wants it
    if example["status"] == ExampleStatus.PENDING:
        task = asyncio.ensure_future(_enqueue_recheck(services, example))
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)


_BACKGROUND: set[asyncio.Task] = set()


async def _enqueue_recheck(services: Services, example: ExampleRow) -> None:
    try:
        await jobs.enqueue_later(services.arq, 2, pending_jobs.recheck_pending_examples)
    except Exception:  # Redis hiccup: the worker's periodic sweep re-judges pending examples
        log.warning("could not queue a re-check for pending example %s", example.get("id"), exc_info=True)
