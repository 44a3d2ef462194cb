"""Retraining a task's target model: starting a run (its job is server/training/job.py) and opening the
next round with the version it published."""

from __future__ import annotations

import asyncio

from server import permissions
from server.accounts.viewer import Viewer
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.core import db, events, jobs
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.services import Services
from server.core.storable import text_problem
from server.evaluation import jobs as evaluation_jobs
from server.evaluation import reads as evaluation_reads
from server.tasks import reads as task_reads
from server.tasks.contexts import copy_contexts
from server.tasks.records import RoundRow, TargetModelRef, TaskRow
from server.tasks.service import create_round, get_task_by_code, load_config
from server.tasks.targets import TargetRequest
from server.training import gate, queries, submissions
from server.training import jobs as training_jobs
from server.training.records import ACTIVE_STATUSES, TrainingProfile, TrainingRunRow, TrainingStatus, log_entry

PROFILES = tuple(TrainingProfile)
MAX_ROUNDS = 50
MAX_TOLERANCE = 1.0  # errors are shares in [0, 1]
MAX_MIN_HELD_OUT = 100_000
STALE_HOURS = 3


async def get_run(run_id: int) -> TrainingRunRow:
    row = await queries.run_by_id(run_id)
    if row is None:
        raise not_found(tr("That training run"))
    return row


async def runs_of_task(task_id: int, first: int) -> list[TrainingRunRow]:
    """The task's runs, newest first (at most 100)."""
    return await queries.runs_of_task(task_id, max(1, min(first, 100)))


async def runs_by_id(run_ids: list[int]) -> list[TrainingRunRow]:
    """Runs among these ids, whoever may see them (the caller applies `can_view_training_run`)."""
    return await queries.runs_by_id(run_ids)


async def start_training(
    services: Services,
    viewer: Viewer,
    task: TaskRow,
    from_rounds: list[int],
    base_model: str,
    profile: str,
    scoring_tolerance: float = gate.DEFAULT_SCORING_TOLERANCE,
    min_held_out: int = gate.DEFAULT_MIN_HELD_OUT,
    include_agreed: bool = True,
) -> TrainingRunRow:
    """Queue a retraining of the task's current target model: a built-in recipe's, or an uploaded classifier's own
    train.py (server/training/submissions.py); who may retrain it is `permissions.retrain_target_model` (a built-in
    model only from its own task, or by an admin). The run's gate
    allows each scoring dataset's error to grow by `scoring_tolerance` and needs `min_held_out` gate examples; with
    `include_agreed` it also reads the closed examples the target agreed with (docs/design.md §4.8)."""
    from server.modelbuild.retrain import spec_for_model

    problems = []
    rounds = sorted(set(from_rounds))
    known = await task_reads.round_numbers(task["id"])
    if len(rounds) > MAX_ROUNDS:
        problems.append(FieldProblem("fromRounds", tr("at most {max_rounds} rounds", max_rounds=MAX_ROUNDS)))
    unknown = [n for n in rounds if n not in known]
    if unknown:
        problems.append(FieldProblem("fromRounds", tr("the task has no round {numbers}", numbers=", ".join(map(str, unknown)))))
    base_model = base_model.strip()
    if len(base_model) > 500 or text_problem(base_model):
        problems.append(FieldProblem("baseModel", tr("at most 500 characters of text")))
    if profile not in PROFILES:
        problems.append(FieldProblem("profile", tr("must be FAST or FULL")))
    if not 0.0 <= scoring_tolerance <= MAX_TOLERANCE:  # NaN fails both comparisons
        problems.append(FieldProblem("scoringTolerance", tr("must be between 0 and 1")))
    if not 1 <= min_held_out <= MAX_MIN_HELD_OUT:
        problems.append(FieldProblem("minHeldOut", tr("must be between 1 and {max}", max=MAX_MIN_HELD_OUT)))
    current = await task_reads.round_by_number(task["id"], task["current_round"])
    targets = from_json(current["target_models"]) if current else []
    spec = spec_for_model(targets[0]["name"]) if targets else None
    source = await evaluation_reads.model(targets[0]["model_id"]) if targets and targets[0].get("model_id") else None
    if source is not None:
        why = await asyncio.to_thread(submissions.retraining_problem, services.settings, source, load_config(task))
        if why:
            problems.append(FieldProblem("taskCode", tr("the task's current target cannot be retrained: {why}", why=why)))
    elif spec is not None and spec.kind == "generative":
        problems.append(
            FieldProblem(
                "taskCode",
                tr("retraining a generative target from its conversations is not supported yet; point a round at another model"),
            )
        )
    elif spec is None:
        problems.append(
            FieldProblem(
                "taskCode",
                tr(
                    "the task's current target model is neither one of the built-in recipes nor an uploaded classifier, "
                    "so there is nothing to retrain"
                ),
            )
        )
    if problems:
        raise invalid(tr("The training request is not valid."), *problems)
    denied = permissions.retrain_target_model(viewer, task, targets[0]["name"])
    if denied is not None:
        raise ServiceError(denied.code, denied.message)
    if source is not None and services.settings.uploads_disabled_reason:
        raise ServiceError(
            "SERVICE_UNAVAILABLE",
            tr("Retraining an uploaded model needs the sandbox that runs uploaded code, which is not available on this server."),
        )
    if source is None and not services.settings.target_model_repository:
        raise ServiceError(
            "CONFLICT",
            tr(
                "Retraining is not configured here: set TARGET_MODEL_REPOSITORY to the target "
                "Triton's model repository (`dynabench up` does)."
            ),
        )
    # A run still "active" hours later lost its job (a worker or Redis gone for good): close it so
    # the task is not blocked forever. A real run takes minutes.
    await queries.abandon_stale_runs(
        task["id"],
        STALE_HOURS,
        log_entry(TrainingStatus.FAILED, f"Abandoned: no progress within {STALE_HOURS} hours (its job was lost)."),
    )
    async with db.transaction():
        if await queries.lock_active_runs(task["id"]):
            raise ServiceError("CONFLICT", tr("A retraining of this task is already running; wait for it to finish."))
        run_id = await queries.insert_run(
            task["id"],
            viewer.user_id,
            rounds,
            base_model,
            profile,
            log_entry(
                TrainingStatus.QUEUED,
                f"Queued: seed data + validated examples of rounds {rounds or 'none'}"
                f"{' and the non-fooling ones the target agreed with' if include_agreed else ''}; the gate needs at least "
                f"{min_held_out} held-out examples and a scoring tolerance of {scoring_tolerance:.1%}.",
            ),
            source["name"] if source is not None else spec.model_name if spec else "",
            scoring_tolerance,
            min_held_out,
            include_agreed,
            source["id"] if source is not None else None,
        )
    # No fixed job id: arq keeps finished job ids for a while and would silently drop a reused one.
    await jobs.enqueue(services.arq, training_jobs.train_target_model, run_id)
    return await get_run(run_id)


async def open_next_round(services: Services, task_code: str, model_version: str) -> RoundRow:
    """The next round, judged by `model_version` of the task's target model (checked live like any round's
    target), with the current round's contexts (announced as RoundCreated)."""
    task = await get_task_by_code(task_code)
    version = model_version.strip()
    if len(version) > 32 or text_problem(version):  # training_runs.model_version is a varchar(32)
        raise invalid(tr("Not a model version."), FieldProblem("modelVersion", tr("at most 32 characters of text")))
    run = await queries.judged_run(task["id"], version)
    if run is not None and run["status"] == TrainingStatus.REJECTED:
        raise ServiceError(
            "CONFLICT",
            tr(
                "Version {version} was rejected by the retraining gate (it is not better than the current target); "
                "an owner may override the gate with a reason (overrideTrainingGate).",
                version=version,
            ),
        )
    if run is None:
        raise invalid(
            tr("No published training run of this task has that version."),
            FieldProblem(
                "modelVersion", tr("version {version!r} was not published for task '{task}'", version=version, task=task_code)
            ),
        )
    previous = await task_reads.round_by_number(task["id"], task["current_round"])
    if submissions.model_id_of(version) is not None:  # a retrained submission: judged by the model the run built
        if run["new_model"] is None:
            raise ServiceError("CONFLICT", tr("The model this run built was deleted; nothing can judge the next round."))
        target: TargetModelRef | TargetRequest = TargetRequest(model_id=run["new_model"])
    else:
        target = {"name": run["model_name"], "version": version}
    row = await create_round(task_code, [target], services=services, announce=False)
    if previous is not None:
        await copy_contexts(previous["id"], row["id"])
    await events.publish(services.redis, events.RoundCreated(round_id=row["id"]))
    await queue_contamination_checks(services, task["id"], row["id"])
    return row


async def cancel_run(services: Services, run: TrainingRunRow) -> TrainingRunRow:
    """A queued run is cancelled at once; a running one is asked to stop (its job stops at the next training step and
    ends it as cancelled). Asking again is harmless; a run that already ended is a conflict."""
    status = await queries.request_cancel(
        run["id"],
        log_entry(TrainingStatus.CANCELLED, "Cancelled before it started; the current target keeps serving."),
        log_entry(run["status"], "Cancellation requested: the run stops at its next step."),
    )
    if status is not None:
        await events.publish(services.redis, events.TrainingChanged(run_id=run["id"], status=status))
        return await get_run(run["id"])
    now = await get_run(run["id"])
    if now["status"] == TrainingStatus.CANCELLED or (now["status"] in ACTIVE_STATUSES and now["cancel_requested"]):
        return now
    raise ServiceError(
        "CONFLICT", tr("This training run has already ended ({status}); there is nothing to cancel.", status=now["status"])
    )


async def override_gate(services: Services, viewer: Viewer, run: TrainingRunRow, reason: str) -> TrainingRunRow:
    """An owner offers a version the gate rejected: the run is published, with who and why (audited)."""
    reason = audit.check_reason(reason, required=True)
    async with db.transaction():
        done = await queries.override_gate(
            run["id"],
            viewer.user_id,
            reason,
            log_entry(TrainingStatus.PUBLISHED, f"Gate overridden by {viewer.username}: {reason}"),
        )
        if not done:
            raise ServiceError("CONFLICT", tr("Only a run the retraining gate rejected can be overridden."))
        await audit.record(
            viewer.user_id,
            AuditAction.TRAINING_GATE_OVERRIDDEN,
            AuditTarget.TRAINING_RUN,
            run["id"],
            run["model_version"],
            reason,
        )
        # Published in the override's transaction (an uploaded model's new version), or the log says why not.
        if run["new_model"] is not None and (why := await submissions.offer_built_model(run["new_model"])):
            await queries.record(
                run["id"], None, log_entry(TrainingStatus.PUBLISHED, f"Model {run['new_model']} was not published: {why}."), {}
            )
    await events.publish(services.redis, events.TrainingChanged(run_id=run["id"], status=TrainingStatus.PUBLISHED.value))
    return await get_run(run["id"])


async def queue_contamination_checks(services: Services, task_id: int, round_id: int) -> None:
    """A retrained target: the round's report (its training data against the scoring datasets), and each dataset's
    report again, since "any model's training data" now holds more (docs/design.md §4.9)."""
    await jobs.enqueue(services.arq, evaluation_jobs.check_round_contamination, round_id)
    for dataset in await evaluation_reads.datasets_of_task(task_id):
        await jobs.enqueue(services.arq, evaluation_jobs.check_dataset_contamination, dataset["id"])
