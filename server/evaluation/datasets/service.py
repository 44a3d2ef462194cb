"""Datasets: owners upload JSONL per round; robustness and fairness copies are generated at upload."""

from __future__ import annotations

import json
from typing import Any, BinaryIO

from asyncpg.exceptions import UniqueViolationError

from server.core import db, jobs
from server.core.errors import FieldProblem, conflict, invalid
from server.core.i18n import tr
from server.core.services import Services
from server.core.storable import check_upload, document_problem, text_problem
from server.evaluation import jobs as evaluation_jobs
from server.evaluation import queries
from server.evaluation.metrics.perturbations import perturb_fields
from server.evaluation.models import pipeline
from server.evaluation.records import GENERATIVE_PROMPT, GENERATIVE_REFERENCE, DatasetAccess, DatasetRow, Perturbation
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.records import TaskRow
from server.tasks.service import load_config

ACCESS = tuple(DatasetAccess)
MAX_ROWS = 100_000
MAX_LINE = 100_000
MAX_UID = 200  # dataset_examples.uid is a varchar(200); perturbed copies add a suffix of 3 characters
PERTURBED_COPIES = 2
SEED = 20211206  # fixed: the same dataset always gets the same perturbed copies


def parse_jsonl(stream: BinaryIO, config: TaskConfig) -> list[dict[str, Any]]:
    """Rows as {"uid", "fields", "gold", "tags"}; every problem is reported with its line number. A generative task's
    rows are {"uid", "prompt", "reference", "tags"}: fields {"prompt"}, gold the reference reply."""
    rows: list[dict[str, Any]] = []
    problems: list[FieldProblem] = []
    seen: set[str] = set()
    for number, raw in enumerate(stream, start=1):
        if len(rows) >= MAX_ROWS:
            raise invalid(
                tr("At most {max_rows:,} rows per dataset.", max_rows=MAX_ROWS), FieldProblem("file", tr("too many rows"))
            )
        if len(raw) > MAX_LINE:
            problems.append(FieldProblem(f"line {number}", tr("longer than {max_line:,} bytes", max_line=MAX_LINE)))
            continue
        line = raw.decode("utf-8", errors="replace").strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(FieldProblem(f"line {number}", tr("not JSON: {error}", error=exc.msg)))
            continue
        problem = _check_row(row, config)
        uid = str(row.get("uid", number)) if isinstance(row, dict) else ""
        if not problem and (len(uid) > MAX_UID - 3 or "#" in uid or text_problem(uid)):
            problem = tr(
                "`uid` must be text of at most {max_uid} characters, without '#' (perturbed copies use it)", max_uid=MAX_UID - 3
            )
        if problem:
            problems.append(FieldProblem(f"line {number}", problem))
        else:
            if uid in seen:
                problems.append(FieldProblem(f"line {number}", tr("duplicate uid {uid!r}", uid=uid)))
            seen.add(uid)
            fields, gold = _fields_and_gold(row, config)
            rows.append(
                {
                    "uid": uid,
                    "fields": fields,
                    "gold": gold,
                    "tags": [str(t) for t in row.get("tags", [])] if isinstance(row.get("tags"), list) else [],
                }
            )
        if len(problems) >= 20:
            break
    if problems:
        raise invalid(tr("The dataset is not valid; nothing was stored."), *problems)
    if not rows:
        raise invalid(tr("The dataset is empty."), FieldProblem("file", tr("no rows")))
    return rows


def _fields_and_gold(row: dict[str, Any], config: TaskConfig) -> tuple[dict[str, str], Any]:
    """What the model is asked and what its answer is scored against."""
    if config.kind == "generative":  # the prompt, sent as a user message; the reference reply (token F1)
        return {GENERATIVE_PROMPT: row[GENERATIVE_PROMPT]}, row[GENERATIVE_REFERENCE]
    gold = row["label"] if config.kind == "classification" else (row.get("answers") or [row.get("answer")])
    return {k: row[k] for k in config.model_inputs}, gold


def _check_row(row: Any, config: TaskConfig) -> str | None:
    if not isinstance(row, dict):
        return tr("each line must be a JSON object")
    if unstorable := document_problem(row, "row"):
        return tr("`{field}` {problem}", field=unstorable.field.removeprefix("row."), problem=unstorable.message)
    if config.kind == "generative":
        for name in (GENERATIVE_PROMPT, GENERATIVE_REFERENCE):
            if not isinstance(row.get(name), str) or not row[name].strip():
                return tr("`{name}` must be non-empty text", name=name)
        return None
    for name in config.model_inputs:
        if not isinstance(row.get(name), str) or not row[name].strip():
            return tr("`{name}` must be non-empty text", name=name)
    if config.kind == "classification":
        if row.get("label") not in (config.labels or []):
            return tr("`label` must be one of {labels}", labels=config.labels)
    else:
        answers = row.get("answers") or ([row["answer"]] if isinstance(row.get("answer"), str) else None)
        if not answers or not all(isinstance(a, str) for a in answers):
            return tr("`answer` (text) or `answers` (list of text) is required")
    return None


def perturbable_fields(config: TaskConfig, kind: Perturbation) -> list[str]:
    """Robustness: the annotator-written fields. Fairness: every model input together, so that a name
    or gender swap is consistent across premise and hypothesis and cannot change the gold label.
    Extractive QA gets no fairness copies: swapping names in the passage would move answer spans. A generative task's
    rows have one field, the prompt, perturbed for both."""
    if config.kind == "generative":
        return [GENERATIVE_PROMPT]
    if kind == Perturbation.ROBUSTNESS:
        return [f.name for f in config.input_fields if f.name in config.model_inputs]
    return [] if config.kind == "extractive_qa" else list(config.model_inputs)


def perturbed_copies(config: TaskConfig, rows: list[dict]) -> list[dict]:
    copies = []
    for row in rows:
        for kind, mark in ((Perturbation.ROBUSTNESS, "r"), (Perturbation.FAIRNESS, "f")):
            fields = perturbable_fields(config, kind)
            variants = perturb_fields(row["fields"], fields, kind.value, SEED, PERTURBED_COPIES) if fields else []
            for i, variant in enumerate(variants):
                copies.append(
                    {
                        "uid": f"{row['uid']}#{mark}{i}",
                        "fields": {**row["fields"], **variant},
                        "gold": row["gold"],
                        "tags": row["tags"],
                        "perturbation": kind.value,
                        "original_uid": row["uid"],
                    }
                )
    return copies


async def create_dataset(
    services: Services, task: TaskRow, round_number: int | None, name: str, access: str, weight: float, stream: BinaryIO
) -> tuple[DatasetRow, int]:
    """Store the dataset and its perturbed copies in one transaction; a new scoring dataset re-evaluates the
    task's live models."""
    config = load_config(task)
    name = name.strip()
    if not 1 <= len(name) <= 200 or text_problem(name):
        raise invalid(tr("Bad dataset name."), FieldProblem("name", tr("1–200 characters of text")))
    if access not in ACCESS:
        raise invalid(tr("Bad access."), FieldProblem("access", tr("one of {values}", values=", ".join(ACCESS))))
    if not 0 <= weight <= 1000:
        raise invalid(tr("Bad weight."), FieldProblem("weight", tr("between 0 and 1000")))
    check_upload(stream, "file")
    round_id = None
    if round_number is not None:
        round_row = await task_reads.round_by_number(task["id"], round_number)
        if round_row is None:
            raise invalid(
                tr("No such round."), FieldProblem("roundNumber", tr("task has no round {number}", number=round_number))
            )
        round_id = round_row["id"]
    rows = parse_jsonl(stream, config)
    dataset = await store_dataset(config, task["id"], round_id, name, access, weight, rows)
    if access == DatasetAccess.SCORING:
        await pipeline.after_scoring_dataset(services, task["id"])
    # Overlap with collected examples, training data and other datasets (docs/design.md §4.9).
    await jobs.enqueue(services.arq, evaluation_jobs.check_dataset_contamination, dataset["id"])
    return dataset, len(rows)


async def store_dataset(
    config: TaskConfig, task_id: int, round_id: int | None, name: str, access: str, weight: float, rows: list[dict[str, Any]]
) -> DatasetRow:
    """Store parsed rows (`parse_jsonl`) and their perturbed copies in one transaction; ConflictError on a taken name.
    Queues nothing: the caller does (createDataset), or has nothing to queue (the built-in seed, server/evaluation/
    seed_datasets/)."""
    copies = perturbed_copies(config, rows)
    try:
        async with db.transaction():
            dataset = await queries.insert_dataset(task_id, round_id, name, access, weight)
            await queries.insert_dataset_examples(dataset["id"], [*rows, *copies])
    except UniqueViolationError:
        raise conflict(tr("The task already has a dataset named {name!r}.", name=name), "name") from None
    return dataset


async def datasets_of_task(task_id: int) -> list[DatasetRow]:
    """Every dataset of the task in creation order; the caller keeps those the viewer may see."""
    return await queries.datasets_of_task(task_id)
