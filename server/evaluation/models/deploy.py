"""Deploying an uploaded model into the sandboxed submissions Triton, then a smoke test."""

from __future__ import annotations

import math
from typing import NamedTuple

from server.core.inference import ModelTimedOut, ModelUnavailable, predict_batch
from server.core.services import Services
from server.evaluation import queries
from server.evaluation.models import generate
from server.evaluation.models.log_text import excerpt
from server.evaluation.models.residency import load_submission, model_ready
from server.evaluation.models.sandbox_agent import output_note, stop_stuck_model, stopped_models, unload_quietly
from server.evaluation.models.status import get_model, record_status
from server.evaluation.records import GENERATIVE_PROMPT, LIVE_STATUSES, ModelStatus
from server.tasks import reads as task_reads
from server.tasks.config import TaskConfig
from server.tasks.service import load_config

SMOKE_EXAMPLES = 4


class Deployment(NamedTuple):
    """The job's result, and whether the model was just deployed (its evaluation job comes next)."""

    status: str
    evaluate_next: bool = False


async def deploy(services: Services, model_id: int) -> Deployment:
    """Idempotent: a model already live in Triton is left alone; otherwise it is (re)loaded."""
    model = await get_model(model_id)
    name = model["triton_name"]
    client = services.triton_submissions
    if model["status"] in LIVE_STATUSES and await model_ready(client, model["triton_name"]):
        return Deployment(model["status"])
    if model["status"] == ModelStatus.FAILED:
        return Deployment(ModelStatus.FAILED)
    stopped = (await stopped_models(services)).get(name)
    if stopped:  # the sandbox stopped it (a crash, a limit): never loaded again by the platform itself
        return await _fail(services, model_id, name, f"Stopped in the sandbox: {stopped}.")
    model = await record_status(
        services, model_id, ModelStatus.DEPLOYING, "Loading the model into the sandboxed submissions Triton.", name
    )
    if not model:  # deleted, or (tests) the id names another model now
        return Deployment(ModelStatus.FAILED)
    task = await task_reads.task_by_id(model["task"])
    assert task is not None  # models.task is a foreign key
    config = load_config(task)
    problem, triton_config = await load_submission(services, model)
    if problem:
        return await _fail(services, model_id, name, problem)
    await record_status(services, model_id, ModelStatus.DEPLOYING, "Loaded; running a smoke test.", name)
    rows = (await smoke_rows(task["id"], config))[: max(1, int(triton_config.get("max_batch_size") or SMOKE_EXAMPLES))]
    try:
        if config.kind == "generative":  # a whole streamed reply to each prompt (generate.py)
            await generate.replies_all(
                services, config, name, [{"fields": r} for r in rows], client, timeout_s=services.settings.smoke_test_timeout_s
            )
            problem = None
        else:
            outputs = await predict_batch(
                client, config, model["triton_name"], rows, timeout_s=services.settings.smoke_test_timeout_s
            )
            problem = check_outputs(config, rows, outputs)
    except ModelTimedOut as exc:
        problem = f"{exc}, the time limit of a smoke test; its processes were stopped"
        await stop_stuck_model(services, model["triton_name"])
    except ModelUnavailable as exc:
        problem = str(exc)
    if problem:
        await unload_quietly(client, model["triton_name"])
        return await _fail(services, model_id, name, f"Smoke test failed: {problem}")
    model = await record_status(services, model_id, ModelStatus.DEPLOYED, f"Smoke test passed on {len(rows)} examples.", name)
    return Deployment(ModelStatus.DEPLOYED, evaluate_next=bool(model))


async def _fail(services: Services, model_id: int, name: str, message: str) -> Deployment:
    await record_status(services, model_id, ModelStatus.FAILED, message + await output_note(services, name), name)
    return Deployment(ModelStatus.FAILED)


async def smoke_rows(task_id: int, config: TaskConfig) -> list[dict[str, str]]:
    """A few of the task's own dataset examples, or a generic row when it has none yet (a generative task: prompts)."""
    found = await queries.smoke_fields(task_id, SMOKE_EXAMPLES)
    if config.kind == "generative":
        prompts = [str(f[GENERATIVE_PROMPT]) for f in found if f.get(GENERATIVE_PROMPT)]
        return [{GENERATIVE_PROMPT: p} for p in prompts or ["What is the capital of France?"]]
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
                return f"example {i}: label {excerpt(output['label'])} is not one of {config.labels}"
            total = sum(output["probs"].values())
            if len(output["probs"]) != len(config.labels or []) or not math.isclose(total, 1.0, abs_tol=1e-3):
                return f"example {i}: probs must have one value per label and sum to 1 (sum {total:.4f})"
        else:
            context = rows[i].get(config.answer_context_field or "context", "")
            if output["answer"] and context[output["start"] : output["end"]] != output["answer"]:
                return f"example {i}: context[start:end] is not the answer"
    return None
