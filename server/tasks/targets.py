"""The models that judge a round: a built-in (or operator's) model in the target Triton, named with its
version, or an evaluated, published submission of the task, served from the sandboxed submissions Triton.

Checked when a round opens and when its targets change (a submission unloaded to make room is loaded
again first): each target must exist, be ready, follow the
task's I/O contract and answer a smoke example, or the request fails with an InputError naming it.
A target that disappears later leaves examples PENDING until it answers again; the round's
`targetModels { status { ready } }` tells the owner which one is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.core.inference import ModelUnavailable, output_names, predict
from server.core.services import Services
from server.core.target_models import is_submission_name, latest_version, serving_client
from server.evaluation import reads as evaluation_reads
from server.evaluation.models.residency import ensure_loaded
from server.evaluation.records import ModelStatus
from server.generation.endpoints import targets as endpoint_targets
from server.generation.params import GenerationParams
from server.generation.streaming import GenerationFailed
from server.generation.triton_stream import stream_triton
from server.tasks.config import TaskConfig
from server.tasks.records import TargetModelRef

MAX_TARGETS = 10
MODEL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
VERSION = re.compile(r"\A[0-9]{1,9}\Z")  # a Triton model version (examples.model_version is a varchar(200))
# Finished evaluations (ranked or not: a task without a scoring dataset still has a loop): the statuses a
# submission may judge a round in.
EVALUATED_STATUSES = frozenset({ModelStatus.EVALUATED, ModelStatus.NOT_RANKED})


@dataclass(frozen=True)
class TargetRequest:
    """One target as asked for: a Triton model name (and version), a submission's id, or an LLM endpoint's name."""

    name: str = ""
    version: str = ""
    model_id: int | None = None
    endpoint: str = ""  # checked by server/generation/endpoints/targets.py; stored as {"name": "endpoint:<name>", ...}


def _shape_problems(requests: Sequence[TargetRequest]) -> list[FieldProblem]:
    if not requests:
        return [FieldProblem("targetModels", tr("is empty"))]
    if len(requests) > MAX_TARGETS:
        return [FieldProblem("targetModels", tr("has more than {limit} entries", limit=MAX_TARGETS))]
    problems = []
    for i, request in enumerate(requests):
        name, version = request.name.strip(), request.version.strip()
        if request.endpoint:
            other = bool(name or version or request.model_id is not None)
            if problem := endpoint_targets.shape_problem(i, request.endpoint, other):
                problems.append(problem)
            continue
        if request.model_id is not None:
            if name or version:
                problems.append(FieldProblem(f"targetModels.{i}", tr("give either modelId or name (and version), not both")))
            continue
        if not MODEL_NAME.match(name):
            problems.append(FieldProblem(f"targetModels.{i}.name", tr("is not a valid Triton model name")))
        elif is_submission_name(name):
            problems.append(FieldProblem(f"targetModels.{i}.name", tr("names a submission: give its modelId instead")))
        elif version and not VERSION.match(version):
            problems.append(FieldProblem(f"targetModels.{i}.version", tr("must be 1–9 digits or empty")))
    return problems


async def _submission_target(task_id: int, i: int, model_id: int, services: Services | None) -> TargetModelRef | FieldProblem:
    field = f"targetModels.{i}.modelId"
    model = await evaluation_reads.model(model_id)
    if model is None:
        return FieldProblem(field, tr("no such model"))
    name = model["name"]
    if model["task"] != task_id:
        return FieldProblem(field, tr("the model '{name}' was submitted to another task", name=name))
    if model["status"] == ModelStatus.FAILED:
        return FieldProblem(field, tr("the model '{name}' failed its deployment or evaluation", name=name))
    if model["status"] not in EVALUATED_STATUSES:
        return FieldProblem(
            field, tr("the model '{name}' is not evaluated yet (status: {status})", name=name, status=model["status"])
        )
    if model["taken_down_at"] is not None:
        return FieldProblem(field, tr("the model '{name}' was taken down by an administrator", name=name))
    if not model["published"]:
        return FieldProblem(field, tr("the model '{name}' is not published: its owner publishes it first", name=name))
    # An idle submission may have been unloaded to make room (server/evaluation/models/residency.py): load it again.
    if services is not None and (problem := await ensure_loaded(services, model)):
        return FieldProblem(field, tr("the model '{name}' could not be loaded again: {problem}", name=name, problem=problem))
    return {"name": model["triton_name"], "version": model["triton_version"] or "1", "model_id": model_id}


async def resolve_targets(
    task: Mapping[str, Any],
    config: TaskConfig | None,
    requests: Sequence[TargetModelRef | TargetRequest],
    services: Services | None,
) -> list[TargetModelRef]:
    """The round's targets at exact versions, each checked live when ``services`` is given (the seed,
    run before any Triton is up, passes none); an InputError names every target that is refused."""
    asked = [r if isinstance(r, TargetRequest) else TargetRequest(r["name"], r.get("version", "")) for r in requests]
    problems = _shape_problems(asked)
    if problems:
        raise invalid(tr("Bad target models."), *problems)
    resolved: list[TargetModelRef | FieldProblem] = []
    for i, request in enumerate(asked):
        if request.model_id is not None:
            resolved.append(await _submission_target(task["id"], i, request.model_id, services))
            continue
        if request.endpoint:
            kind = config.kind if config is not None else None
            resolved.append(await endpoint_targets.endpoint_target(task, kind, i, request.endpoint, services))
            continue
        name, version = request.name.strip(), request.version.strip()
        if not version and services is not None:
            version = await latest_version(services.triton, name) or ""
        if not version:
            resolved.append(
                FieldProblem(
                    f"targetModels.{i}.version",
                    tr(
                        "the target Triton serves no model '{name}' right now: name the version that judges this round", name=name
                    ),
                )
            )
        else:
            resolved.append({"name": name, "version": version})
    if services is not None and config is not None:
        checks = await asyncio.gather(
            *(check_live(services, config, ref) for ref in resolved if not isinstance(ref, FieldProblem))
        )
        answers = iter(checks)
        for i, ref in enumerate(resolved):
            if not isinstance(ref, FieldProblem) and (problem := next(answers)):
                resolved[i] = FieldProblem(
                    f"targetModels.{i}",
                    tr("'{name}' version {version}: {problem}", name=ref["name"], version=ref["version"], problem=problem),
                )
    problems = [p for p in resolved if isinstance(p, FieldProblem)]
    if problems:
        raise invalid(tr("A target model cannot judge this round."), *problems)
    targets = [ref for ref in resolved if not isinstance(ref, FieldProblem)]
    battle = config.generative.battle if config is not None and config.generative is not None else None
    if battle is not None and len({ref["name"] for ref in targets}) < battle.sides:
        # Each side of a battle is a different model (docs/design.md §4.1d).
        raise invalid(
            tr("Bad target models."),
            FieldProblem(
                "targetModels", tr("a battle task needs at least {count} different targets (battle.sides)", count=battle.sides)
            ),
        )
    return targets


async def check_live(services: Services, config: TaskConfig, ref: TargetModelRef) -> str | None:
    """Why this model cannot judge the task's examples now, or None: ready, the task's inputs and outputs, an answer."""
    if ref.get("endpoint"):
        return None  # an LLM endpoint answered its smoke request when it was resolved (endpoint_targets)
    client = serving_client(services, ref["name"])
    timeout = services.settings.triton_timeout_s
    try:
        ready = await asyncio.wait_for(client.is_model_ready(ref["name"], ref["version"]), timeout)
        metadata = await asyncio.wait_for(client.get_model_metadata(ref["name"], ref["version"]), timeout) if ready else {}
    except Exception:  # noqa: BLE001 — unknown model, unreachable Triton: not ready either way
        ready, metadata = False, {}
    if not ready:
        if is_submission_name(ref["name"]):
            return tr("not loaded and ready in the sandboxed submissions Triton")
        return tr("not loaded and ready in the target Triton")
    inputs = {tensor.get("name") for tensor in metadata.get("inputs") or ()}
    outputs = {tensor.get("name") for tensor in metadata.get("outputs") or ()}
    if config.kind == "generative":
        return await check_generative(client, ref, inputs, outputs, services.settings.generation_first_token_timeout_s)
    missing_in = [name for name in config.model_inputs if name not in inputs]
    missing_out = [name for name in output_names(config) if name not in outputs]
    if missing_in and missing_out:
        return tr(
            "does not follow the task's I/O contract: it lacks the input(s) {inputs} and the output(s) {outputs}",
            inputs=", ".join(missing_in),
            outputs=", ".join(missing_out),
        )
    if missing_in:
        return tr("does not follow the task's I/O contract: it lacks the input(s) {inputs}", inputs=", ".join(missing_in))
    if missing_out:
        return tr("does not follow the task's I/O contract: it lacks the output(s) {outputs}", outputs=", ".join(missing_out))
    try:
        await predict(client, config, ref["name"], ref["version"], smoke_fields(config), timeout)
    except ModelUnavailable as exc:
        return tr("did not answer a smoke example ({error})", error=str(exc))
    return None


def smoke_fields(config: TaskConfig) -> dict[str, str]:
    """One plausible example for any task: a passage with its answer for QA-style inputs, a sentence otherwise."""
    passage = "The bridge opened in 1932 and carries four lanes of traffic."
    generic = {"context": passage, "passage": passage, "question": "When did the bridge open?"}
    return {name: generic.get(name, "This is a smoke test sentence.") for name in config.model_inputs}


async def check_generative(client: Any, ref: TargetModelRef, inputs: set, outputs: set, timeout_s: float) -> str | None:
    """A generative target (triton_models/README.md, "Generative tasks"): text_input in, text_output streamed out,
    and a first piece of a smoke reply."""
    missing = [name for name in ("text_input",) if name not in inputs] + [n for n in ("text_output",) if n not in outputs]
    if missing:
        return tr("does not follow the generative contract: it lacks {names}", names=", ".join(missing))
    pieces = stream_triton(
        client,
        ref["name"],
        ref["version"],
        "User: Hello\nAssistant:",
        GenerationParams(max_tokens=4, temperature=0.0, seed=0),
        first_token_timeout_s=timeout_s,
        idle_timeout_s=timeout_s,
    )
    try:
        async with contextlib.aclosing(pieces):
            async for _ in pieces:
                break
    except GenerationFailed as exc:
        return tr("did not stream a smoke reply ({error})", error=str(exc))
    return None
