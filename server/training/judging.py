"""The retraining gate, measured: the current target and the new version answer every held-out example of the chosen
rounds (errors paired per example), and both are scored on the task's scoring datasets; server/training/gate.py
(pure) compares and decides (docs/design.md §4.8). A built-in model's two versions answer from the target Triton, an
uploaded classifier and its retrained copy from the sandboxed submissions Triton (two models there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.annotation.fooling import model_is_wrong, squad_f1
from server.core.jsonutil import from_json
from server.core.services import Services
from server.evaluation import reads as evaluation_reads
from server.evaluation.models.evaluate import infer_all, measure_dataset
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.training import gate

QA_WRONG_BELOW_F1 = 0.4  # a QA task whose fooling leaves the verdict to people: an answer this far off is an error


async def current_version(task: Mapping[str, Any], from_rounds: Sequence[int], model_name: str, fallback: str) -> str:
    """The version the newest chosen round's targets pin (the task's current round when none was chosen); a round
    that names the model without a version (Triton would answer with its newest) falls back to `fallback`."""
    number = max(from_rounds) if from_rounds else task["current_round"]
    round_row = await task_reads.round_by_number(task["id"], number)
    targets = from_json(round_row["target_models"]) if round_row else []
    pinned = next((str(t.get("version") or "") for t in targets if t.get("name") == model_name), "")
    return pinned or fallback


@dataclass(frozen=True)
class Contender:
    """One side of the comparison: a Triton model (of `client`) at an exact version, and how the run's record names it
    (a version number, or "model 57" for a submission)."""

    name: str
    version: str
    label: str


def is_wrong(config: TaskConfig, row: Mapping[str, Any], predicted: str) -> bool:
    """The platform's own verdict on one answer (fooling.model_is_wrong), against the validated label or answer."""
    if config.kind == "classification":
        return predicted != row["label"]
    try:
        return model_is_wrong(config, row["answer"], {"answer": predicted})
    except ValueError:
        return squad_f1(predicted, row["answer"]) < QA_WRONG_BELOW_F1


async def scores(services: Services, task_id: int, config: TaskConfig, contender: Contender, client: Any) -> list[dict]:
    """This exact version on each of the task's scoring datasets, with the evaluation job's metrics."""
    measured_all = []
    for dataset in await evaluation_reads.scoring_datasets(task_id):
        measured = await measure_dataset(services, config, contender.name, dataset, client=client, version=contender.version)
        if measured is not None:
            measured_all.append({"dataset": dataset["name"], **measured})
    return measured_all


async def judge(
    services: Services,
    task_id: int,
    config: TaskConfig,
    gate_rows: Sequence[Mapping[str, Any]],
    contenders: tuple[Contender, Contender],
    client: Any,
    run: Mapping[str, Any],
) -> tuple[dict, list[dict]]:
    """The gate's record ({**gate.GateDecision, current_version, new_version}) and the new version's scores;
    `contenders` is (current, new), both answering from `client`."""
    current, new = contenders
    inputs = [{"fields": {name: row[name] for name in config.model_inputs}} for row in gate_rows]
    wrong: list[list[bool]] = []
    for contender in contenders:
        predictions, _ = await infer_all(services, config, contender.name, inputs, client=client, version=contender.version)
        wrong.append([is_wrong(config, row, p) for row, p in zip(gate_rows, predictions, strict=True)])
    held_out = gate.compare_paired(wrong[0], wrong[1], run["min_held_out"])
    current_scores = await scores(services, task_id, config, current, client)
    new_scores = await scores(services, task_id, config, new, client)
    scoring = gate.compare_scoring(
        {s["dataset"]: s["perf"] for s in current_scores},
        {s["dataset"]: s["perf"] for s in new_scores},
        run["scoring_tolerance"],
    )
    decision = gate.decide(held_out, scoring)
    return {**decision, "current_version": current.label, "new_version": new.label}, new_scores
