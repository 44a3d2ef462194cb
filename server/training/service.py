"""Retraining a task's target model: starting a run, the job that trains, evaluates and publishes the new
version in the target Triton, and opening the next round with it.

The job recomputes everything from the run's row (the validated examples of the chosen rounds are read
again), so a retry after a killed worker builds the same version number again and ends in the same state.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from server.core import events
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.evaluation.evaluate import measure_dataset
from server.evaluation.tables import Dataset
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.service import create_round, get_task_by_code, load_config
from server.tasks.tables import Context, Round, Task
from server.training.tables import TrainingRun

ACTIVE = ("queued", "training", "evaluating")
PROFILES = ("fast", "full")
MAX_ROUNDS = 50
STALE_HOURS = 3

VALIDATED_EXAMPLES = """
SELECT e.input::text AS input, c.fields::text AS context
FROM examples e JOIN contexts c ON c.id = e.context JOIN rounds r ON r.id = e.round
WHERE r.task = {} AND r.number = ANY({}::int[]) AND e.status = 'validated' AND NOT e.retracted
ORDER BY e.id
"""


async def get_run(run_id: int) -> dict:
    row = await TrainingRun.select().where(TrainingRun.id == run_id).first().output(load_json=True)
    if row is None:
        raise not_found("That training run")
    return row


async def start_training(services: Services, user_id: int, task: dict, from_rounds: list[int], base_model: str,
                         profile: str) -> dict:
    from server.modelbuild.retrain import spec_for_model

    problems = []
    rounds = sorted(set(from_rounds))
    known = {r["number"] for r in await Round.select(Round.number).where(Round.task == task["id"])}
    if len(rounds) > MAX_ROUNDS:
        problems.append(FieldProblem("fromRounds", f"at most {MAX_ROUNDS} rounds"))
    unknown = [n for n in rounds if n not in known]
    if unknown:
        problems.append(FieldProblem("fromRounds", f"the task has no round {', '.join(map(str, unknown))}"))
    base_model = base_model.strip()
    if len(base_model) > 500 or text_problem(base_model):
        problems.append(FieldProblem("baseModel", "at most 500 characters of text"))
    if profile not in PROFILES:
        problems.append(FieldProblem("profile", "must be FAST or FULL"))
    current = await Round.select().where(Round.task == task["id"], Round.number == task["current_round"]).first()
    targets = _json(current["target_models"]) if current else []
    spec = spec_for_model(targets[0]["name"]) if targets else None
    if spec is None:
        problems.append(FieldProblem("taskCode", "the task's current target model is not one of the built-in recipes, "
                                                 "so there is nothing to retrain"))
    if problems:
        raise invalid("The training request is not valid.", *problems)
    if not services.settings.target_model_repository:
        raise ServiceError("CONFLICT", "Retraining is not configured here: set TARGET_MODEL_REPOSITORY to the target "
                                       "Triton's model repository (`dynabench up` does).")
    # A run still "active" hours later lost its job (a worker or Redis gone for good): close it so
    # the task is not blocked forever. A real run takes minutes.
    await TrainingRun.raw(
        "UPDATE training_runs SET status = 'failed', status_log = status_log || {}::jsonb "
        "WHERE task = {} AND status = ANY({}::text[]) AND created_at < now() - make_interval(hours => {})",
        json.dumps([_entry("failed", f"Abandoned: no progress within {STALE_HOURS} hours (its job was lost).")]),
        task["id"], list(ACTIVE), STALE_HOURS,
    )
    async with TrainingRun._meta.db.transaction():
        busy = await TrainingRun.raw("SELECT id FROM training_runs WHERE task = {} AND status = ANY({}::text[]) FOR UPDATE",
                                     task["id"], list(ACTIVE))
        if busy:
            raise ServiceError("CONFLICT", "A retraining of this task is already running; wait for it to finish.")
        rows = await TrainingRun.raw(
            "INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, status_log, model_name) "
            "VALUES ({}, {}, {}::jsonb, {}, {}, 'queued', {}::jsonb, {}) RETURNING id",
            task["id"], user_id, json.dumps(rounds), base_model, profile,
            json.dumps([_entry("queued", f"Queued: seed data + validated examples of rounds {rounds or 'none'}.")]),
            spec.model_name,
        )
    run_id = rows[0]["id"]
    # No fixed job id: arq keeps finished job ids for a while and would silently drop a reused one.
    await services.arq.enqueue_job("train_target_model", run_id)
    return await get_run(run_id)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _entry(status: str, message: str) -> dict[str, Any]:
    return {"status": status, "message": message[:4000], "at": time.time()}


async def _record(services: Services, run_id: int, status: str | None = None, message: str | None = None, **values: Any) -> None:
    sets, args = [], []
    if status is not None:
        sets.append("status = {}")
        args.append(status)
    if message is not None:
        sets.append("status_log = status_log || {}::jsonb")
        args.append(json.dumps([_entry(status or "training", message)]))
    for column, value in values.items():
        sets.append(f"{column} = {{}}" + ("::jsonb" if column == "metrics" else ""))
        args.append(json.dumps(value) if column == "metrics" else value)
    await TrainingRun.raw(f"UPDATE training_runs SET {', '.join(sets)} WHERE id = {{}}", *args, run_id)
    await events.publish(services.redis, events.TrainingChanged(run_id=run_id, status=status))


async def run_training(services: Services, run_id: int) -> str:
    """The arq job's body: train, load into the target Triton, evaluate, publish."""
    from server.modelbuild.build import BuildError
    from server.modelbuild.retrain import build_next_version, spec_for_model, training_rows

    run = await get_run(run_id)
    if run["status"] not in ACTIVE:
        return run["status"]
    task = await Task.select().where(Task.id == run["task"]).first()
    config = load_config(task)
    spec = spec_for_model(run["model_name"])
    repository = Path(services.settings.target_model_repository)
    examples = []
    for row in await TrainingRun.raw(VALIDATED_EXAMPLES, task["id"], run["from_rounds"]):
        stored, context = json.loads(row["input"]), json.loads(row["context"])
        examples.append({"fields": {**context, **stored}, "label": stored.get("label"), "answer": stored.get("answer"),
                         "answer_start": stored.get("answer_start")})
    extra = training_rows(spec, examples)
    await _record(services, run_id, "training", f"Training {spec.model_name} ({run['profile']} profile) on the seed data "
                  f"plus {len(extra)} validated examples.", n_validated=len(extra), progress=0.0)
    loop = asyncio.get_running_loop()
    last = [0.0]

    def on_event(event) -> None:  # called from the training thread
        if event.stage == "train" and event.total and time.monotonic() - last[0] > 1.0:
            last[0] = time.monotonic()
            share = round(0.9 * event.step / event.total, 3)
            asyncio.run_coroutine_threadsafe(_record(services, run_id, progress=share), loop)

    try:
        version, meta = await asyncio.to_thread(
            build_next_version, spec, repository, extra, run["profile"], run["base_model"] or None, on_event)
    except (BuildError, OSError, ValueError) as exc:
        await _record(services, run_id, "failed", f"Training failed: {exc}")
        return "failed"
    score = meta.get("heldout_accuracy", meta.get("heldout_f1"))
    await _record(services, run_id, "evaluating", f"Built version {version}: held-out {meta.get('heldout_metric')} {score}; "
                  "loading it into the target Triton.", model_version=str(version), progress=0.9,
                  metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": []})
    try:
        await asyncio.wait_for(services.triton.load_model(spec.model_name), timeout=600)
    except Exception as exc:  # noqa: BLE001 — Triton's own message is what the owner needs
        await _record(services, run_id, "failed", f"Triton did not load version {version}: {exc}")
        return "failed"
    scores = await _evaluate(services, task["id"], config, spec.model_name, str(version))
    await _record(services, run_id, "published", f"Version {version} is live in the target Triton; scored on "
                  f"{len(scores)} scoring dataset(s). Open the next round with it (openNextRound).", progress=1.0,
                  metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": scores})
    return "published"


async def _evaluate(services: Services, task_id: int, config, model_name: str, version: str) -> list[dict]:
    """This exact version on each of the task's scoring datasets, with the evaluation job's metrics."""
    scores = []
    datasets = await Dataset.select().where(Dataset.task == task_id, Dataset.access == "scoring").order_by(Dataset.id)
    for dataset in datasets:
        measured = await measure_dataset(services, config, model_name, dataset, client=services.triton, version=version)
        if measured is not None:
            scores.append({"dataset": dataset["name"], **measured})
    return scores


async def open_next_round(task_code: str, model_version: str) -> dict:
    """The next round, judged by `model_version` of the task's target model, with the current round's contexts."""
    task = await get_task_by_code(task_code)
    version = model_version.strip()
    if len(version) > 32 or text_problem(version):  # training_runs.model_version is a varchar(32)
        raise invalid("Not a model version.", FieldProblem("modelVersion", "at most 32 characters of text"))
    run = await TrainingRun.select().where(
        TrainingRun.task == task["id"], TrainingRun.model_version == version, TrainingRun.status == "published"
    ).first()
    if run is None:
        raise invalid("No published training run of this task has that version.",
                      FieldProblem("modelVersion", f"version {version!r} was not published for task '{task_code}'"))
    previous = await Round.select().where(Round.task == task["id"], Round.number == task["current_round"]).first()
    row = await create_round(task_code, [{"name": run["model_name"], "version": version}])
    if previous is not None:
        await Context.raw(
            "INSERT INTO contexts (round, fields, tag, total_used, total_fooled, created_at) "
            "SELECT {}, fields, tag, 0, 0, now() FROM contexts WHERE round = {} ORDER BY id",
            row["id"], previous["id"],
        )
    return row
