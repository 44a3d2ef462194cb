"""The retraining job's body: train, load the new version into the target Triton, judge it against the current target
(server/training/judging.py), and publish it (it passed the gate) or reject it (loaded, not offered).

The job recomputes everything from the run's row (the validated examples of the chosen rounds are read
again), so a retry after a killed worker builds the same version number again and ends in the same state.
What the run says it trained on (`n_validated`, `trained_on`) is the training code's own count of the
validated examples it drew into batches (server/modelbuild/mixing.py), recorded once the build is written; unless the
run leaves them out (`include_agreed`), the closed examples the target agreed with count among them. The
gate's held-out examples (gate.is_held_out) and the recipe's development split (modelbuild/continuation.py) are never
among them. A classifier continues from the version the gate compares with (judging.current_version).

Cancelling (`cancelTrainingRun`) sets the row's `cancel_requested`; a watcher reads it every second and the build's
progress callback raises BuildCancelled at the next step. A cancelled run leaves no version directory behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from pathlib import Path

import asyncpg
import redis.exceptions

from server.core.errors import not_found
from server.core.i18n import tr
from server.core.services import Services
from server.tasks import reads as task_reads
from server.tasks.service import load_config
from server.training import gate, judging, queries, submissions
from server.training.records import ACTIVE_STATUSES, TrainedOn, TrainingRunRow, TrainingStatus
from server.training.run_record import Cost, cancelled_run, record_run

CANCEL_POLL_SECONDS = 1.0
TRANSIENT = (OSError, TimeoutError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, redis.exceptions.ConnectionError)
OUTAGE_TRIES = 5  # a run's job is tried this many times while a service it needs is away (below arq's max_tries)
OUTAGE_RETRY_S = 30  # then 60, 90, 120 s: about five minutes in all
log = logging.getLogger(__name__)


async def _watch_cancel(run_id: int, stop: threading.Event) -> None:
    while not stop.is_set():
        if await queries.cancel_requested(run_id):
            stop.set()
            return
        await asyncio.sleep(CANCEL_POLL_SECONDS)


async def run_training(services: Services, run_id: int) -> str:
    """The arq job's body: train, load into the target Triton, judge, publish or reject (or stop when cancelled)."""
    run = await queries.run_by_id(run_id)
    if run is None:
        raise not_found(tr("That training run"))
    if run["status"] not in ACTIVE_STATUSES:
        return run["status"]
    stop = threading.Event()
    watcher = asyncio.create_task(_watch_cancel(run_id, stop))
    from server.modelbuild.retrain import spec_for_model  # lazy: the build's modules are heavy

    cost = Cost()
    try:
        # An uploaded classifier, retrained by its own train.py (its row may be gone: the run fails saying so).
        if run["source_model"] is not None or spec_for_model(run["model_name"]) is None:
            return await submissions.train_judge_publish(services, run, stop, cost)
        return await _train_judge_publish(services, run, stop, cost)
    except TRANSIENT:  # a service away for a moment: the job is tried again (job_functions.py; retry_after_outage)
        raise
    except Exception:  # a bug: the run must not stay active (a retry would do the same)
        log.exception("training run %s failed unexpectedly", run_id)
        await record_run(
            services, run_id, TrainingStatus.FAILED, "Failed unexpectedly; the current target keeps serving.", **cost.values()
        )
        return TrainingStatus.FAILED.value
    finally:
        stop.set()
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


def retry_after_outage(tries: int) -> float | None:
    """How long a job that met an unreachable service (its `tries`-th try) waits before the next; None: no more tries."""
    return OUTAGE_RETRY_S * tries if tries < OUTAGE_TRIES else None


async def fail_after_outages(services: Services, run_id: int, tries: int) -> str:
    """The run ends (if still active): a service it needs stayed unreachable through every try. Failed, or cancelled when
    its owner asked meanwhile."""
    run = await queries.run_by_id(run_id)
    if run is None or run["status"] not in ACTIVE_STATUSES:
        return run["status"] if run else TrainingStatus.FAILED.value
    if run["cancel_requested"]:
        return await cancelled_run(services, run_id, "while a service it needs was unreachable", Cost())
    await record_run(
        services,
        run_id,
        TrainingStatus.FAILED,
        f"A service the run needs (the database, Redis or Triton) could not be reached on {tries} tries; "
        "the current target keeps serving. Start the run again once the platform is back.",
        guarded=True,
    )
    return TrainingStatus.FAILED.value


async def _train_judge_publish(services: Services, run: TrainingRunRow, stop: threading.Event, cost: Cost) -> str:
    from server.modelbuild.progress import BuildCancelled, BuildError
    from server.modelbuild.retrain import build_next_version, existing_versions, spec_for_model, training_rows

    run_id = run["id"]
    task = await task_reads.task_by_id(run["task"])
    config = load_config(task)
    spec = spec_for_model(run["model_name"])
    assert spec is not None
    repository = Path(services.settings.target_model_repository)
    examples = []
    rows = await queries.validated_examples(task["id"], run["from_rounds"], run["include_agreed"])
    agreed = sum(row["agreed"] for row in rows)
    for row in rows:
        stored, context = row["input"], row["context"]
        examples.append(
            {
                "id": row["id"],
                "fields": {**context, **stored},
                "label": stored.get("label"),
                "answer": stored.get("answer"),
                "answer_start": stored.get("answer_start"),
            }
        )
    trained = [e for e in examples if not gate.is_held_out(e["id"])]
    extra = training_rows(spec, trained)
    gate_rows = training_rows(spec, [e for e in examples if gate.is_held_out(e["id"])])
    skipped = (
        f" ({len(trained) - len(extra)} of them lack an input or label the model takes)" if len(extra) < len(trained) else ""
    )
    # Counted among the validated ones from here on: their label is the writer's, which the target agreed with.
    with_agreed = (
        f" (with {agreed} non-fooling example(s) the target agreed with, which the task does not validate)"
        if run["include_agreed"]
        else " (the non-fooling examples nobody validated left out, as asked)"
    )
    started = await record_run(
        services,
        run_id,
        TrainingStatus.TRAINING,
        f"Training {spec.model_name} ({run['profile']} profile) on the seed data plus every usable one of the "
        f"{len(trained)} validated examples of rounds {run['from_rounds'] or 'none'}{with_agreed} outside the gate's "
        f"held-out share{skipped} (a classifier continues from the current version, a development split of them picking the "
        f"checkpoint when there are enough); {len(gate_rows)} held-out example(s) judge it.",
        guarded=True,
        progress=0.0,
    )
    if not started:  # cancelled (or ended) before the job began
        now = await queries.run_by_id(run_id)
        if now is None or now["status"] not in ACTIVE_STATUSES:
            return now["status"] if now else TrainingStatus.CANCELLED.value
        return await cancelled_run(services, run_id, "before training began", cost)
    loop = asyncio.get_running_loop()
    last = [0.0]
    reached = [0, 0]

    def on_event(event) -> None:  # called from the training thread
        if stop.is_set() and event.stage != "done":  # "done" comes after the version's rename: checked below
            raise BuildCancelled(f"at step {event.step} of {event.total}" if event.stage == "train" else f"at {event.stage}")
        if event.stage == "train" and event.total:
            reached[:] = [event.step, event.total]
            if time.monotonic() - last[0] > 1.0:
                last[0] = time.monotonic()
                share = round(0.9 * event.step / event.total, 3)
                asyncio.run_coroutine_threadsafe(record_run(services, run_id, progress=share), loop)

    model_dir = repository / spec.model_name
    before = existing_versions(model_dir)
    held_ids = [row["example_id"] for row in gate_rows]
    # The version the gate compares with is also the one a classifier continues from (docs/design.md §4.8).
    current = await judging.current_version(task, run["from_rounds"], spec.model_name, str(max(before, default=1)))
    try:
        version, meta = await asyncio.to_thread(
            build_next_version,
            spec,
            repository,
            extra,
            run["profile"],
            run["base_model"] or None,
            on_event,
            None,
            held_ids,
            current,
        )
    except BuildCancelled as exc:
        return await cancelled_run(services, run_id, f"while training, {exc}", cost)
    except (BuildError, OSError, ValueError) as exc:
        await record_run(services, run_id, TrainingStatus.FAILED, f"Training failed: {exc} ({cost.text()}).", **cost.values())
        return TrainingStatus.FAILED.value
    if stop.is_set():
        return await cancelled_run(services, run_id, "after training", cost, model_dir / str(version))
    score = meta.get("heldout_accuracy", meta.get("heldout_f1"))
    drawn = meta["validated"]
    await record_run(
        services,
        run_id,
        TrainingStatus.EVALUATING,
        f"Built version {version} from {meta.get('started_from', 'the base encoder')} on {meta.get('n_seed_train')} seed "
        f"rows and {drawn['trained']} validated examples ({drawn['share']:.0%} of the training draws, each drawn at "
        f"least {drawn['min_draws']} time(s); ids digest {drawn['digest'][:12]}; {len(drawn.get('dev_ids', []))} more "
        f"held out as the development split{_selection_text(meta)}): held-out {meta.get('heldout_metric')} {score}; "
        f"{cost.text()} so far; loading it into the target Triton.",
        n_validated=drawn["trained"],
        trained_on=_trained_on(meta, len(examples), len(examples) - len(trained), agreed),
        model_version=str(version),
        progress=0.9,
        metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": []},
        **cost.values(),
    )
    try:
        await asyncio.wait_for(services.triton.load_model(spec.model_name), timeout=600)
    except Exception as exc:  # noqa: BLE001 — Triton's own message is what the owner needs
        message = f"Triton did not load version {version}: {exc} ({cost.text()})."
        await record_run(services, run_id, TrainingStatus.FAILED, message, **cost.values())
        return TrainingStatus.FAILED.value
    if stop.is_set():
        return await cancelled_run(services, run_id, "after loading", cost, model_dir / str(version), loaded=True)
    try:
        contenders = (
            judging.Contender(spec.model_name, current, current),
            judging.Contender(spec.model_name, str(version), str(version)),
        )
        decision, scores = await judging.judge(services, task["id"], config, gate_rows, contenders, services.triton, run)
    except Exception as exc:  # noqa: BLE001 — an unanswering version: the run fails, the current target serves on
        message = f"Judging version {version} against version {current} failed: {exc} ({cost.text()})."
        await record_run(services, run_id, TrainingStatus.FAILED, message, **cost.values())
        return TrainingStatus.FAILED.value
    if stop.is_set():
        return await cancelled_run(services, run_id, "while judging", cost, model_dir / str(version), loaded=True)
    status = TrainingStatus.PUBLISHED if decision["passed"] else TrainingStatus.REJECTED
    outcome = (
        "Open the next round with it (openNextRound)."
        if decision["passed"]
        else "It stays loaded but is not offered as the next target unless an owner overrides the gate "
        "(overrideTrainingGate); the current target keeps serving."
    )
    finished = await record_run(
        services,
        run_id,
        status,
        f"Version {version} is live in the target Triton, compared with version {current}. {decision['summary']} "
        f"{outcome} ({cost.text()}).",
        guarded=True,
        progress=1.0,
        metrics={"heldout_metric": meta.get("heldout_metric"), "heldout": score, "scores": scores},
        gate=decision,
        **cost.values(),
    )
    if not finished:  # asked to stop between the last check and this write
        return await cancelled_run(services, run_id, "while judging", cost, model_dir / str(version), loaded=True)
    return status.value


def _trained_on(meta: dict, read: int, held_out: int, agreed: int) -> TrainedOn:
    """The run's record of what the build trained on (the ids themselves stay in the version's metadata.json)."""
    trained = meta["validated"]
    return {
        "validated": trained["trained"],
        "available": trained["available"],
        "read": read,
        "agreed": agreed,
        "held_out": held_out,
        "by_label": trained["by_label"],
        "digest": trained["digest"],
        "share": trained["share"],
        "min_draws": trained["min_draws"],
        "seed": meta.get("n_seed_train", 0),
        "steps": meta.get("train_steps", 0),
        "dev": len(trained.get("dev_ids", [])),
        "best_step": meta.get("recipe", {}).get("best_step"),
        "started_from": meta.get("started_from", "base encoder"),
    }


def _selection_text(meta: dict) -> str:
    recipe = meta.get("recipe", {})
    if recipe.get("best_step") is None:
        return ""
    return f"; kept step {recipe['best_step']} of {recipe['stopped_at']} ({recipe['stop_reason']})"
