"""Deploying an uploaded model into the sandboxed submissions Triton, then a smoke test."""

from __future__ import annotations

import asyncio
import json
import math

from tritonclient.utils import InferenceServerException

from server.core import events
from server.evaluation.archive import ArchiveLimits, ArchiveRejected, read_model_repository
from server.evaluation.models_service import archive_path, get_model, record_status
from server.evaluation.tables import DatasetExample
from server.core.inference import ModelUnavailable, predict_batch
from server.core.services import Services
from server.tasks.config import TaskConfig
from server.tasks.service import load_config
from server.tasks.tables import Task

SMOKE_EXAMPLES = 4
LIVE_STATUSES = ("deployed", "evaluating", "evaluated")


async def publish_model_event(services: Services, model: dict) -> None:
    await events.publish(services.redis, events.ModelChanged(model_id=model["id"], status=model.get("status")))


async def deploy(services: Services, model_id: int) -> str:
    """Idempotent: a model already live in Triton is left alone; otherwise it is (re)loaded."""
    model = await get_model(model_id)
    client = services.triton_submissions
    if model["status"] in LIVE_STATUSES and await _ready(client, model["triton_name"]):
        return model["status"]
    if model["status"] == "failed":
        return "failed"
    model = await record_status(model_id, "deploying", "Loading the model into the sandboxed submissions Triton.")
    await publish_model_event(services, model)
    task = await Task.select().where(Task.id == model["task"]).first()
    config = load_config(task)
    try:
        repository = await asyncio.to_thread(
            read_model_repository, archive_path(services.settings, model_id),
            ArchiveLimits(max_files=services.settings.upload_max_files, max_total_bytes=services.settings.upload_max_bytes),
        )
    except (ArchiveRejected, OSError) as exc:
        return await _fail(services, model_id, f"The stored archive could not be read: {exc}")
    triton_config = {**repository.config, "name": model["triton_name"]}
    files = {f"file:{path}": data for path, data in repository.files.items()}
    try:
        await asyncio.wait_for(
            client.load_model(model["triton_name"], config=json.dumps(triton_config), files=files), timeout=600
        )
    except InferenceServerException as exc:
        return await _fail(services, model_id, f"Triton refused to load the model: {exc.message()}")
    except (asyncio.TimeoutError, OSError) as exc:
        return await _fail(services, model_id, f"Triton did not load the model: {type(exc).__name__} {exc}")
    await publish_model_event(services, await record_status(model_id, "deploying", "Loaded; running a smoke test."))
    rows = await smoke_rows(task["id"], config)
    try:
        outputs = await predict_batch(client, config, model["triton_name"], rows, timeout_s=120)
        problem = check_outputs(config, rows, outputs)
    except ModelUnavailable as exc:
        problem = str(exc)
    if problem:
        await _unload(client, model["triton_name"])
        return await _fail(services, model_id, f"Smoke test failed: {problem}")
    model = await record_status(model_id, "deployed", f"Smoke test passed on {len(rows)} examples.")
    await publish_model_event(services, model)
    await services.arq.enqueue_job("evaluate_model", model_id)
    return "deployed"


async def _ready(client, name: str) -> bool:
    try:
        return bool(await client.is_model_ready(name))
    except Exception:  # noqa: BLE001 — unreachable Triton: not ready
        return False


async def _unload(client, name: str) -> None:
    try:
        await client.unload_model(name)
    except Exception:  # noqa: BLE001 — best effort; the model failed anyway
        pass


async def _fail(services: Services, model_id: int, message: str) -> str:
    model = await record_status(model_id, "failed", message)
    await publish_model_event(services, model)
    return "failed"


async def smoke_rows(task_id: int, config: TaskConfig) -> list[dict[str, str]]:
    """A few of the task's own dataset examples, or a generic row when it has none yet."""
    rows = await DatasetExample.raw(
        "SELECT de.fields FROM dataset_examples de JOIN datasets d ON d.id = de.dataset "
        "WHERE d.task = {} AND de.perturbation = 'original' ORDER BY de.id LIMIT {}",
        task_id, SMOKE_EXAMPLES,
    )
    found = [json.loads(r["fields"]) if isinstance(r["fields"], str) else r["fields"] for r in rows]
    if found:
        return [{name: str(f.get(name, "")) for name in config.model_inputs} for f in found]
    generic = {"context": "The bridge opened in 1932 and carries four lanes of traffic.", "question": "When did the bridge open?"}
    return [{name: generic.get(name, "This is a smoke test sentence.") for name in config.model_inputs}]


def check_outputs(config: TaskConfig, rows: list[dict], outputs: list[dict]) -> str | None:
    if len(outputs) != len(rows):
        return f"expected {len(rows)} outputs, got {len(outputs)}"
    for i, output in enumerate(outputs):
        if config.kind == "classification":
            if output["label"] not in (config.labels or []):
                return f"example {i}: label {output['label']!r} is not one of {config.labels}"
            total = sum(output["probs"].values())
            if len(output["probs"]) != len(config.labels or []) or not math.isclose(total, 1.0, abs_tol=1e-3):
                return f"example {i}: probs must have one value per label and sum to 1 (sum {total:.4f})"
        else:
            context = rows[i].get(config.answer_context_field or "context", "")
            if output["answer"] and context[output["start"]:output["end"]] != output["answer"]:
                return f"example {i}: context[start:end] is not the answer"
    return None
