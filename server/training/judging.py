"""The retraining gate, measured: the current target version and the new one answer every held-out example of the
chosen rounds through the target Triton (errors paired per example), and both are scored on the task's scoring
datasets; server/training/gate.py (pure) compares and decides (docs/design.md §4.8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.annotation.fooling import model_is_wrong, squad_f1
from server.core.jsonutil import from_json
from server.core.services import Services
from server.evaluation import reads as evaluation_reads
from server.evaluation.models.evaluate import infer_all, measure_dataset
from server.modelbuild.tasks import TaskSpec
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


def is_wrong(config: TaskConfig, spec: TaskSpec, row: Mapping[str, Any], predicted: str) -> bool:
    """The platform's own verdict on one answer (fooling.model_is_wrong), against the validated label or answer."""
    if spec.kind == "classification":
        return predicted != row["label"]
    try:
        return model_is_wrong(config, row["answer"], {"answer": predicted})
    except ValueError:
        return squad_f1(predicted, row["answer"]) < QA_WRONG_BELOW_F1


async def scores(services: Services, task_id: int, config: TaskConfig, model_name: str, version: str) -> list[dict]:
    """This exact version on each of the task's scoring datasets, with the evaluation job's metrics."""
    measured_all = []
    for dataset in await evaluation_reads.scoring_datasets(task_id):
        measured = await measure_dataset(services, config, model_name, dataset, client=services.triton, version=version)
        if measured is not None:
            measured_all.append({"dataset": dataset["name"], **measured})
    return measured_all


async def judge(
    services: Services,
    task_id: int,
    config: TaskConfig,
    spec: TaskSpec,
    gate_rows: Sequence[Mapping[str, Any]],
    versions: tuple[str, str],
    run: Mapping[str, Any],
) -> tuple[dict, list[dict]]:
    """The gate's record ({**gate.GateDecision, current_version, new_version}) and the new version's scores."""
    current, new = versions
    inputs = [{"fields": {name: row[name] for name in spec.inputs}} for row in gate_rows]
    wrong: dict[str, list[bool]] = {}
    for version in (current, new):
        predictions, _ = await infer_all(services, config, spec.model_name, inputs, client=services.triton, version=version)
        wrong[version] = [is_wrong(config, spec, row, p) for row, p in zip(gate_rows, predictions, strict=True)]
    held_out = gate.compare_paired(wrong[current], wrong[new], run["min_held_out"])
    current_scores = await scores(services, task_id, config, spec.model_name, current)
    new_scores = await scores(services, task_id, config, spec.model_name, new)
    scoring = gate.compare_scoring(
        {s["dataset"]: s["perf"] for s in current_scores},
        {s["dataset"]: s["perf"] for s in new_scores},
        run["scoring_tolerance"],
    )
    decision = gate.decide(held_out, scoring)
    return {**decision, "current_version": current, "new_version": new}, new_scores
