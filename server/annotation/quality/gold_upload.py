"""uploadGold (docs/design.md §4.2): a task owner uploads JSONL rows that become hidden gold examples of a round.

One row per line: `{"fields": {<the task's input fields>}, "label": "<a task label>"` (or `"answer"` and optional
`"answerStart"` for extractive QA)`, "gold": "correct" | "incorrect" | "flagged", "contextId": <optional context id of
the round; default its first context>}`; `gold` is the right validation answer for that claimed label. Rows are
checked like submissions (server/annotation/validation_input.py); any bad row refuses the whole file (nothing is
written). A hidden gold example is served only by the gold mix of the validation queue, never as anyone's
submission: it moves no counter, is recounted out of round and user stats, not exported, and the near-duplicate guard
ignores it.

So that nothing gives it away, each row is judged like a submission at upload: the round's target model(s) are asked
(examples/judging.py), and the gold example stores their output, names and verdict (`fooled`, which the validator
sees as for any item; for a task that validates only fooling examples, rows the model gets right stand out, so upload
rows that fool it). A model that cannot answer loses nothing: the rows are stored `pending` and judged by the
pending-example worker (examples/pending.py keeps them open and silent), and the gold mix serves no gold item that
awaits its model (quality/queries.py FRESH_GOLD)."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from server import permissions
from server.accounts.viewer import Viewer
from server.annotation import fooling
from server.annotation.examples import jobs as pending_jobs
from server.annotation.examples import queries as example_queries
from server.annotation.examples.judging import ask_models, choose_targets, model_fields, model_output_document
from server.annotation.quality import queries
from server.annotation.records import ExampleStatus
from server.annotation.validation_input import check_submission
from server.core import db, jobs
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.core.inference import ModelUnavailable
from server.core.jsonutil import from_json, to_json
from server.core.services import Services
from server.tasks.config import TaskConfig

log = logging.getLogger(__name__)

MAX_ROWS = 1000
MAX_PROBLEMS = 20
ANSWERS = ("correct", "incorrect", "flagged")
KEYS = {"fields", "label", "answer", "answerStart", "gold", "contextId"}
MODEL_CALLS_AT_ONCE = 8  # rows judged concurrently at upload


@dataclass(frozen=True)
class GoldRow:
    line: int
    fields: Any
    intended: Any
    answer_start: int | None
    gold: str
    context_id: int | None


@dataclass(frozen=True)
class GoldJudgement:
    """What the round's target model(s) made of a gold row, stored like a submission's (pending: none yet)."""

    output: str | None  # the model output document, as JSON
    model_name: str
    model_version: str
    fooled: bool | None
    status: str  # open, or pending when the model could not answer
    pending_reason: str = ""


def parse_rows(text: str) -> list[GoldRow]:
    """The file's rows, or INVALID_INPUT naming each bad line (pure: the task's own checks come later)."""
    rows: list[GoldRow] = []
    problems: list[FieldProblem] = []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise invalid(tr("The file has no rows."), FieldProblem("file", tr("one JSON object per line")))
    if len(lines) > MAX_ROWS:
        raise invalid(
            tr("At most {max} gold rows per file.", max=MAX_ROWS), FieldProblem("file", tr("at most {max} rows", max=MAX_ROWS))
        )
    for n, line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            problems.append(FieldProblem(f"line {n}", tr("is not valid JSON")))
            continue
        if not isinstance(value, dict):
            problems.append(FieldProblem(f"line {n}", tr("must be a JSON object")))
            continue
        unknown = sorted(set(value) - KEYS)
        gold = value.get("gold")
        context_id = value.get("contextId")
        answer_start = value.get("answerStart")
        if unknown:
            problems.append(FieldProblem(f"line {n}", tr("unknown keys: {keys}", keys=", ".join(unknown))))
        elif not isinstance(gold, str) or gold.lower() not in ANSWERS:
            problems.append(FieldProblem(f"line {n}.gold", tr("must be correct, incorrect or flagged")))
        elif context_id is not None and (isinstance(context_id, bool) or not isinstance(context_id, int) or context_id < 1):
            problems.append(FieldProblem(f"line {n}.contextId", tr("must be a context id")))
        elif answer_start is not None and (isinstance(answer_start, bool) or not isinstance(answer_start, int)):
            problems.append(FieldProblem(f"line {n}.answerStart", tr("must be an integer")))
        else:
            intended = value.get("label", value.get("answer"))
            rows.append(GoldRow(n, value.get("fields"), intended, answer_start, gold.lower(), context_id))
    if problems:
        raise invalid(tr("Some gold rows are not valid; nothing was written."), *problems[:MAX_PROBLEMS])
    return rows


async def upload_gold(services: Services, viewer: Viewer, round_row: dict, config: TaskConfig, text: str) -> list[int]:
    """All rows become hidden gold examples of the round, or none (the ids, in file order)."""
    denied = permissions.manage_gold(viewer, round_row["task"])
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    rows = parse_rows(text)
    checked: list[tuple[GoldRow, dict, dict]] = []
    problems: list[FieldProblem] = []
    contexts: dict[int | None, dict | None] = {}
    for row in rows:
        if row.context_id not in contexts:
            found = await queries.gold_context(round_row["id"], row.context_id)
            contexts[row.context_id] = None if found is None else await example_queries.context_row(found)
        context = contexts[row.context_id]
        if context is None:
            problems.append(FieldProblem(f"line {row.line}.contextId", tr("no such context in this round")))
            continue
        try:
            stored = check_submission(config, context["fields"], row.fields, row.intended, row.answer_start, "", None)
        except ServiceError as error:
            problems += [FieldProblem(f"line {row.line}.{p.field}", p.message) for p in error.fields]
            continue
        checked.append((row, context, stored))
    if problems:
        raise invalid(tr("Some gold rows are not valid; nothing was written."), *problems[:MAX_PROBLEMS])
    judgements = await judge_rows(services, config, from_json(round_row["target_models"]) or [], checked)
    async with db.transaction():
        ids = [
            await queries.insert_hidden_gold(
                round_row["id"],
                round_row["task"],
                int(context["id"]),
                viewer.user_id,
                to_json(stored),
                row.gold,
                output=judged.output,
                model_name=judged.model_name,
                model_version=judged.model_version,
                fooled=judged.fooled,
                status=str(judged.status),
                pending_reason=judged.pending_reason,
            )
            for (row, context, stored), judged in zip(checked, judgements)
        ]
    if any(j.status == ExampleStatus.PENDING for j in judgements):
        await _queue_recheck(services)
    return ids


async def judge_rows(
    services: Services, config: TaskConfig, round_targets: list[dict], rows: list[tuple[GoldRow, dict, dict]]
) -> list[GoldJudgement]:
    """Each row asked of the round's target model(s) as a submission is, a few at a time. Once a model cannot
    answer, the rows not yet asked wait as pending without asking (a whole file against a timeout would take long)."""
    gate = asyncio.Semaphore(MODEL_CALLS_AT_ONCE)
    away: list[str] = []

    async def judge(context: dict, stored: dict) -> GoldJudgement:
        targets = choose_targets(config, round_targets) if round_targets else []
        names = "+".join(t["name"] for t in targets)
        versions = "+".join(t.get("version", "") for t in targets)
        if not targets:  # a round without targets: nothing to ask, as no submission could be judged either
            return GoldJudgement(None, "", "", None, ExampleStatus.OPEN)
        async with gate:
            if away:
                return GoldJudgement(None, names, versions, None, ExampleStatus.PENDING, away[0])
            try:
                predictions = await ask_models(services, config, targets, model_fields(config, context, stored))
            except ModelUnavailable as exc:
                away.append(str(exc))
                return GoldJudgement(None, names, versions, None, ExampleStatus.PENDING, str(exc))
        intended = stored["label"] if config.kind == "classification" else stored["answer"]
        return GoldJudgement(
            to_json(model_output_document(predictions)),
            "+".join(p.model_name for p in predictions),
            "+".join(p.model_version for p in predictions),
            fooling.fooled(config, str(intended), [p.output for p in predictions]),
            ExampleStatus.OPEN,
        )

    return list(await asyncio.gather(*(judge(context, stored) for _row, context, stored in rows)))


async def _queue_recheck(services: Services) -> None:
    try:
        await jobs.enqueue_later(services.arq, 2, pending_jobs.recheck_pending_examples)
    except Exception:  # Redis hiccup: the worker's periodic sweep judges pending examples
        log.warning("could not queue a re-check for uploaded gold", exc_info=True)
