"""Retraining an uploaded classifier that judges a round (issue #35, point 4; docs/design.md §4.8b).

The owner's archive carries its own recipe, ``train.py`` beside ``model.py`` in its newest version folder. The job gives it the validated
examples of the chosen rounds (the gate's held-out share never among them) in a one-shot sandbox
(server/sandbox/training.py), and what it writes is checked exactly like an upload. The result is a new model of
the same owner (``retrained_from`` the current one), deployed and evaluated in the sandboxed submissions Triton like
any upload; then the gate compares the two there, on the held-out examples and the scoring datasets, and the run is
published (openNextRound opens a round judged by the new model) or rejected. The current target serves throughout.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from server.core import db
from server.core.errors import ServiceError
from server.core.i18n import tr
from server.core.services import Services
from server.core.settings import Settings
from server.evaluation import reads as evaluation_reads
from server.evaluation.archive import ArchiveLimits, ArchiveRejected, read_model_repository
from server.evaluation.archive.repository import ModelRepository
from server.evaluation.archive.write import write_model_repository
from server.evaluation.models.log_text import scrub
from server.evaluation.models.residency import ensure_loaded
from server.evaluation.models.service import (
    check_archive,
    insert_retrained_model,
    queue_retrained_deployment,
    set_published,
    store_retrained_archive,
)
from server.evaluation.models.status import archive_path
from server.evaluation.records import ModelRow, ModelStatus
from server.modelbuild.mixing import ids_digest
from server.sandbox.bwrap import SANDBOX_UID, SandboxUnavailable
from server.sandbox.training import TRAIN_SCRIPT, TrainingLimits, check_training_available, run_train_script
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.service import load_config
from server.training import gate, judging, queries
from server.training.records import TrainedOn, TrainingRunRow, TrainingStatus, log_entry
from server.training.run_record import Cost, cancelled_run, ended_meanwhile, record_run

LOG_TAIL_CHARS = 2000  # of train.py's own output, quoted in the run's log
# The worker's job timeout is an hour (workers/main.py), past which arq fails the job without a word to the run: the
# job keeps to a budget below it (the script's wall time capped, the wait for the new model's deployment and evaluation
# and the judging within what is left) and ends the run as failed when it runs out. A job retried after its worker
# died, once the model was stored, only judges it.
JOB_BUDGET_S = 3300.0
MAX_TRAIN_WALL_S = 2400.0
JUDGING_RESERVE_S = 300.0
POLL_S = 1.0
VERSION_PREFIX = "model-"  # a retrained submission's version, as openNextRound takes it: "model-<its id>"


def version_of(model_id: int) -> str:
    return f"{VERSION_PREFIX}{model_id}"


def model_id_of(version: str) -> int | None:
    number = version.removeprefix(VERSION_PREFIX)
    return int(number) if version.startswith(VERSION_PREFIX) and number.isdigit() else None


def stored_repository(settings: Settings, model_id: int, contents: bool = True):
    limits = ArchiveLimits(max_files=settings.upload_max_files, max_total_bytes=settings.upload_max_bytes)
    return read_model_repository(archive_path(settings, model_id), limits, contents=contents)


def train_script(repository: ModelRepository) -> str | None:
    """The path of the archive's recipe in its model directory: train.py in the newest version folder, or None."""
    path = f"{max(repository.versions, default=1)}/{TRAIN_SCRIPT}"
    return path if path in repository.files else None


def retraining_problem(settings: Settings, model: ModelRow, config: TaskConfig) -> str | None:
    """Why this submission cannot be retrained (None: it can): only a classifier whose archive has a train.py, and not
    one an administrator took down (its code would run again, and its copy could be published)."""
    if model["taken_down_at"] is not None:
        return tr("the uploaded model '{name}' was taken down by an administrator", name=model["name"])
    if config.kind != "classification":
        return tr("only an uploaded classifier can be retrained; point the round at another model")
    try:
        repository = stored_repository(settings, model["id"], contents=False)  # in the API: the file names only
    except (ArchiveRejected, OSError):
        return tr("its stored archive could not be read")
    if train_script(repository) is None:
        return tr(
            "the uploaded model '{name}' has no train.py beside its model.py, so there is no recipe to retrain it "
            "with (its owner can upload a version that has one: triton_models/README.md)",
            name=model["name"],
        )
    return None


def training_records(config: TaskConfig, examples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Examples → the rows train.py reads: the model's inputs, the label, the example's id; one the model cannot take
    (an input missing, a label not the task's) is left out."""
    rows = []
    for example in examples:
        fields = {**example["context"], **example["input"]}
        record = {name: fields.get(name) for name in config.model_inputs}
        label = example["input"].get("label")
        if any(not isinstance(value, str) or not value for value in record.values()) or label not in (config.labels or []):
            continue
        rows.append({**record, "label": label, "example_id": example["id"]})
    return rows


def _write_inputs(
    folder: Path, settings: Settings, parent: ModelRow, config: TaskConfig, run: TrainingRunRow, rows
) -> tuple[Path, str]:
    """The current version's model directory and the data folder, readable by the sandbox's user only: the model folder
    and the recipe's path in it."""
    repository = stored_repository(settings, parent["id"])
    script = train_script(repository)
    if script is None:
        raise ValueError("its archive has no train.py any more")
    model_dir = write_model_repository(repository, folder / "current")
    data = folder / "data"
    data.mkdir()
    with (data / "train.jsonl").open("w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    description = {
        "kind": config.kind,
        "model_inputs": config.model_inputs,
        "labels": config.labels,
        "rounds": run["from_rounds"],
        "profile": run["profile"],
        "examples": len(rows),
    }
    (data / "task.json").write_text(json.dumps(description))
    # The task's examples and the researcher's code: readable by the sandbox's user alone (nobody, when the worker runs
    # as root; else the worker's own user), not by every account on the host.
    owner = SANDBOX_UID if os.geteuid() == 0 else None
    for path in (folder, *folder.rglob("*")):
        if path.is_symlink():
            continue
        if owner is not None:
            os.chown(path, owner, owner)
        os.chmod(path, 0o700 if path.is_dir() else 0o600)
    return model_dir, script


def _limits(settings: Settings) -> TrainingLimits:
    return TrainingLimits(
        wall_seconds=min(settings.submission_training_timeout_s, MAX_TRAIN_WALL_S),
        memory_bytes=int(settings.submission_training_memory_gb * 1024**3),
        cpu_cores=settings.submission_training_cpu_cores,
        output_bytes=min(settings.upload_max_bytes, settings.submission_training_output_mb * 1024**2),
    )


async def train_judge_publish(services: Services, run: TrainingRunRow, stop: threading.Event, cost: Cost) -> str:
    run_id = run["id"]
    parent = await evaluation_reads.model(run["source_model"]) if run["source_model"] else None
    if parent is None:
        await record_run(services, run_id, TrainingStatus.FAILED, "The uploaded model to retrain was deleted.")
        return TrainingStatus.FAILED.value
    if parent["taken_down_at"] is not None and run["new_model"] is None:  # taken down after the run was started
        await record_run(services, run_id, TrainingStatus.FAILED, "An administrator took the uploaded model to retrain down.")
        return TrainingStatus.FAILED.value
    task = await task_reads.task_by_id(run["task"])
    config = load_config(task)
    examples = await queries.validated_examples(task["id"], run["from_rounds"], run["include_agreed"])
    rows = training_records(config, examples)  # type: ignore[arg-type]
    trained = [row for row in rows if not gate.is_held_out(row["example_id"])]
    gate_rows = [row for row in rows if gate.is_held_out(row["example_id"])]
    deadline = time.monotonic() + JOB_BUDGET_S
    if run["new_model"] is not None:  # a retried job (its worker died): the model was built and stored; judge it
        built = await evaluation_reads.model(run["new_model"])
        if built is None:
            await record_run(services, run_id, TrainingStatus.FAILED, "The model this run built was deleted.")
            return TrainingStatus.FAILED.value
        if not run["model_version"]:  # the worker died between storing the model and saying so
            message = f"Resumed: model {built['id']} was built and stored before the job was interrupted."
            resumed = version_of(built["id"])
            recorded = await record_run(services, run_id, TrainingStatus.EVALUATING, message, guarded=True, model_version=resumed)
            if not recorded and (ended := await ended_meanwhile(run_id)):
                return ended
        if built["status"] == ModelStatus.UPLOADED:  # its deployment may never have been queued: queued once now
            await queue_retrained_deployment(services, built)
        return await _judge_and_decide(services, run, parent, built, gate_rows, config, stop, cost, deadline)
    agreed = sum(example["agreed"] for example in examples)
    started = await record_run(
        services,
        run_id,
        TrainingStatus.TRAINING,
        f"Running the {TRAIN_SCRIPT} of '{parent['name']}' (model {parent['id']}, its owner's recipe) in a sandbox, on "
        f"{len(trained)} validated example(s) of rounds {run['from_rounds'] or 'none'} outside the gate's held-out share "
        f"({agreed} of those read are non-fooling ones the target agreed with); {len(gate_rows)} held-out example(s) "
        f"judge it. Limits: {_limits(services.settings).wall_seconds:g} s, no network.",
        guarded=True,
        progress=0.05,
    )
    if not started:
        return await _ended_before_start(services, run_id, cost)
    built = await _build(services, run, parent, config, trained, stop, cost)
    if isinstance(built, str):  # the run ended (failed or cancelled)
        return built
    evaluating = await record_run(
        services,
        run_id,
        TrainingStatus.EVALUATING,
        f"{TRAIN_SCRIPT} built model {built['id']} ('{built['name']}', {parent['name']}'s owner's): its output passed "
        f"every upload check; deploying and evaluating it in the sandboxed submissions Triton, as any upload "
        f"({cost.text()} so far).",
        model_version=version_of(built["id"]),
        n_validated=len(trained),
        trained_on=_trained_on(trained, len(examples), len(gate_rows), agreed, parent["id"]),
        progress=0.6,
        guarded=True,
        **cost.values(),
    )
    if not evaluating and (ended := await ended_meanwhile(run_id)):
        return ended
    return await _judge_and_decide(services, run, parent, built, gate_rows, config, stop, cost, deadline)


async def _failed(services: Services, run_id: int, message: str, cost: Cost) -> str:
    await record_run(services, run_id, TrainingStatus.FAILED, f"{message} ({cost.text()}).", **cost.values())
    return TrainingStatus.FAILED.value


async def _build(
    services: Services,
    run: TrainingRunRow,
    parent: ModelRow,
    config: TaskConfig,
    trained: list[dict],
    stop: threading.Event,
    cost: Cost,
) -> ModelRow | str:
    """Run the recipe, check its output like an upload and store it as the parent owner's new model (the run's
    `new_model` set in the same transaction, so a retry never builds a second one): the model, or the run's end."""
    run_id, settings = run["id"], services.settings
    store = Path(settings.model_store_dir)
    # Named like an upload's staging file, so the store's sweep removes one a crash left behind.
    staging = store / f".upload-retrain-{run_id}-{datetime.now(UTC).timestamp():.6f}"
    try:
        try:
            await asyncio.to_thread(check_training_available)
            await asyncio.to_thread(store.mkdir, parents=True, exist_ok=True)
            outcome = await _train(settings, parent, config, run, trained, stop, staging)
        except (SandboxUnavailable, RuntimeError, subprocess.SubprocessError) as exc:
            return await _failed(
                services,
                run_id,
                f"The sandbox that runs {TRAIN_SCRIPT} cannot start on this worker ({scrub(str(exc))}); docs/deploy.md "
                "says what a worker needs to retrain uploaded models. The current target keeps serving",
                cost,
            )
        except (ArchiveRejected, OSError, ValueError) as exc:
            return await _failed(services, run_id, f"The model to retrain could not be prepared: {scrub(str(exc))}", cost)
        if stop.is_set() or outcome.reason == "cancelled":
            return await cancelled_run(services, run_id, "while training", cost)
        if not outcome.ok:
            tail = scrub(outcome.log[-LOG_TAIL_CHARS:]).strip() or "(nothing)"
            message = f"{TRAIN_SCRIPT} did not finish: {outcome.reason}. The end of its output:\n{tail}\n"
            return await _failed(services, run_id, message, cost)
        try:
            await asyncio.to_thread(check_archive, staging, settings, config)
        except ServiceError as exc:
            return await _failed(
                services, run_id, f"What {TRAIN_SCRIPT} wrote was refused, as an upload would be: {exc.message}", cost
            )
        if stop.is_set():
            return await cancelled_run(services, run_id, "after training", cost)
        async with db.transaction():
            new = await insert_retrained_model(parent, f"{parent['name'][:70].strip()} (retrained run {run_id})")
            await queries.record(run_id, None, None, {"new_model": new["id"]})
            await asyncio.to_thread(store_retrained_archive, settings, new, staging)
        await queue_retrained_deployment(services, new)
        return new
    finally:
        await asyncio.to_thread(staging.unlink, True)


async def _train(settings: Settings, parent: ModelRow, config: TaskConfig, run: TrainingRunRow, rows, stop, output: Path):
    with tempfile.TemporaryDirectory(prefix="dynabench-retrain-") as folder:
        model_dir, script = await asyncio.to_thread(_write_inputs, Path(folder), settings, parent, config, run, rows)
        limits = _limits(settings)
        data = Path(folder) / "data"
        return await run_train_script(model_dir, script, data, output, limits, stop, name=f"train-{run['id']}")


async def _ended_before_start(services: Services, run_id: int, cost: Cost) -> str:
    now = await queries.run_by_id(run_id)
    if now is None or now["status"] not in (TrainingStatus.QUEUED, TrainingStatus.TRAINING, TrainingStatus.EVALUATING):
        return now["status"] if now else TrainingStatus.CANCELLED.value
    return await cancelled_run(services, run_id, "before training began", cost)


async def _wait_until_evaluated(model_id: int, stop: threading.Event, until: float) -> ModelRow | None:
    """The new model once its deployment and evaluation ended (evaluated, not ranked or failed); None when the run was
    asked to stop or `until` (a monotonic time) passed."""
    while time.monotonic() < until and not stop.is_set():
        model = await evaluation_reads.model(model_id)
        if model is None or model["status"] in (ModelStatus.EVALUATED, ModelStatus.NOT_RANKED, ModelStatus.FAILED):
            return model
        await asyncio.sleep(POLL_S)
    return None


async def offer_built_model(model_id: int) -> str:
    """Publish the model a run built, now that it is offered (gate passed, or overridden), if the model it was built
    from is still published and not taken down; otherwise why not (its owner may publish it)."""
    model = await evaluation_reads.model(model_id)
    parent = await evaluation_reads.model(model["retrained_from"]) if model and model["retrained_from"] else None
    if model is None:
        return "it was deleted"
    if model["taken_down_at"] is not None:
        return "an administrator took it down"
    if parent is None or not parent["published"] or parent["taken_down_at"] is not None:
        return "the model it was built from is no longer published, so it is left to its owner to publish"
    await set_published(model_id, True)
    return ""


async def _judge_and_decide(
    services: Services,
    run: TrainingRunRow,
    parent: ModelRow,
    new: ModelRow,
    gate_rows: list[dict],
    config: TaskConfig,
    stop: threading.Event,
    cost: Cost,
    deadline: float,
) -> str:
    run_id = run["id"]
    kept = f"model {new['id']} stays its owner's, unpublished"
    evaluated = await _wait_until_evaluated(new["id"], stop, deadline - JUDGING_RESERVE_S)
    if stop.is_set():
        return await cancelled_run(services, run_id, f"while model {new['id']} was being evaluated", cost, kept=kept)
    if evaluated is None or evaluated["status"] == ModelStatus.FAILED:
        last = (evaluated or {}).get("status_log") or [{"message": "it was deleted, or its evaluation did not end in time"}]
        reason = scrub(str(last[-1]["message"]), new["triton_name"])
        return await _failed(services, run_id, f"Model {new['id']} failed its deployment or evaluation: {reason}", cost)
    contenders: list[judging.Contender] = []
    try:
        # Loading the two (residency may have unloaded either) counts in the job's time, as the judging does.
        async with asyncio.timeout(max(1.0, deadline - time.monotonic())):
            for model in (parent, evaluated):
                if problem := await ensure_loaded(services, model):
                    reason = scrub(problem, model["triton_name"])
                    return await _failed(
                        services, run_id, f"Model {model['id']} could not be loaded to be judged: {reason}", cost
                    )
                contenders.append(judging.Contender(model["triton_name"], model["triton_version"] or "1", f"model {model['id']}"))
            decision, scores = await judging.judge(
                services, run["task"], config, gate_rows, (contenders[0], contenders[1]), services.triton_submissions, run
            )
    except Exception as exc:  # noqa: BLE001 — an unanswering model, or out of time: the run fails, the target serves on
        reason = "it did not end within the job's time" if isinstance(exc, TimeoutError) else scrub(str(exc), new["triton_name"])
        return await _failed(services, run_id, f"Judging model {new['id']} against model {parent['id']} failed: {reason}", cost)
    status = TrainingStatus.PUBLISHED if decision["passed"] else TrainingStatus.REJECTED
    outcome = (
        f"Open the next round with it (openNextRound, version {version_of(new['id'])})."
        if decision["passed"]
        else "It stays its owner's model, unpublished, and is not offered as the next target unless an owner overrides "
        "the gate (overrideTrainingGate); the current target keeps serving."
    )

    async def offer() -> None:  # in the transaction of the run's last status: published with it, or why not
        if decision["passed"] and (why := await offer_built_model(new["id"])):
            await queries.record(run_id, None, log_entry(status, f"Model {new['id']} was not published: {why}."), {})

    finished = await record_run(
        services,
        run_id,
        status,
        f"Model {new['id']} compared with model {parent['id']} in the submissions Triton. {decision['summary']} {outcome} "
        f"({cost.text()}).",
        guarded=True,
        and_then=offer,
        progress=1.0,
        metrics={"heldout_metric": None, "heldout": None, "scores": scores},
        gate=decision,
        **cost.values(),
    )
    if not finished:
        return await cancelled_run(services, run_id, "while judging", cost, kept=kept)
    return status.value


def _trained_on(trained: list[dict], read: int, held_out: int, agreed: int, parent_id: int) -> TrainedOn:
    by_label: dict[str, int] = {}
    for row in trained:
        by_label[row["label"]] = by_label.get(row["label"], 0) + 1
    return {
        "validated": len(trained),
        "available": len(trained),
        "read": read,
        "agreed": agreed,
        "held_out": held_out,
        "by_label": by_label,
        "digest": ids_digest([row["example_id"] for row in trained]),
        "share": 0.0,  # the owner's recipe decides how it uses them; the platform does not know
        "min_draws": 0,
        "seed": 0,
        "steps": 0,
        "dev": 0,
        "best_step": None,
        "started_from": f"model {parent_id} (its own {TRAIN_SCRIPT})",
    }
