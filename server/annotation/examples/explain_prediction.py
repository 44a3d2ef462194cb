"""explainPrediction: which words of a draft example moved the round's target model (leave-one-out occlusion,
server/annotation/occlusion.py), in one batched call to the model. Nothing is stored.

The draft is checked like a sandbox trial (the round open and visible to the writer, the context in it, the model
inputs non-empty text within their limits) and counts against its own rate limit: an explanation costs one model call
of up to 64 rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.annotation import occlusion
from server.annotation.examples import queries
from server.annotation.examples.service import cached_config
from server.core import rate_limits
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.inference import ModelUnavailable, predict_batch
from server.core.jsonutil import from_json
from server.core.rate_limits import Action
from server.core.services import Services
from server.core.storable import text_problem
from server.core.target_models import model_info, serving_client
from server.tasks.config import TaskConfig

BATCH_ROWS = 64  # the built-in targets' max_batch_size: the draft and up to 63 variants in one request
MAX_PIECES = BATCH_ROWS - 1


@dataclass(frozen=True)
class Explanation:
    model_name: str
    model_version: str
    output: dict[str, Any]  # the model's answer to the draft as written
    pieces: list[occlusion.Piece]
    attributions: list[float]
    model_calls: int  # batched requests made (1 unless the model takes smaller batches)


async def explain_prediction(
    services: Services, user_id: int, round_id: int, context_id: int | None, fields: Any, address: str | None = None
) -> Explanation:
    config, targets, context_fields = await _load(round_id, context_id, user_id)
    inputs = _checked_inputs(config, fields)
    await rate_limits.take(services.redis, services.settings, Action.EXPLAIN, account=user_id, address=address)
    model_fields = {**context_fields, **inputs}
    explained = [name for name in config.model_inputs if name in inputs]
    pieces = occlusion.pieces(model_fields, explained, MAX_PIECES)
    rows = [model_fields] + [occlusion.without(model_fields, piece) for piece in pieces]
    target = targets[0]  # the round's (first) target model: the one a writer sees judging by default
    name, version = target["name"], target.get("version", "")
    client = serving_client(services, name)
    per_call = (await model_info(client, name, version)).get("max_batch_size") or BATCH_ROWS
    per_call = max(1, min(per_call, BATCH_ROWS))
    outputs: list[dict[str, Any]] = []
    try:
        for start in range(0, len(rows), per_call):
            batch = rows[start : start + per_call]
            outputs += await predict_batch(client, config, name, batch, services.settings.triton_timeout_s, version)
    except ModelUnavailable:
        raise ServiceError("MODEL_UNAVAILABLE", tr("The model could not answer just now. Try again shortly.")) from None
    calls = -(-len(rows) // per_call)
    return Explanation(name, version, outputs[0], pieces, occlusion.attributions(config.kind, outputs[0], outputs[1:]), calls)


async def _load(round_id: int, context_id: int | None, user_id: int) -> tuple[TaskConfig, list[dict], dict[str, str]]:
    """The round's config and targets, and the context's fields when the model reads any (else {})."""
    rows = await queries.load_for_writing(round_id, context_id or 0, None, user_id)
    if not rows or not rows[0]["may_write"]:  # a hidden task's round is as good as missing to others
        raise not_found(tr("That round"))
    row = rows[0]
    if row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    config = cached_config(row["task"], row["config"])
    targets = from_json(row["target_models"]) or []
    if not targets:
        raise ServiceError("MODEL_UNAVAILABLE", tr("This round has no target model to explain."))
    context_names = {f.name for f in config.context_fields}
    if not any(name in context_names for name in config.model_inputs):
        return config, targets, {}
    if context_id is None:
        raise invalid(tr("This task's model reads the context: give its id."), FieldProblem("contextId", tr("is required")))
    if row["context_id"] is None or row["context_round"] != row["id"]:
        raise not_found(tr("That context (in this round)"))
    return config, targets, from_json(row["context_fields"]) or {}


def _checked_inputs(config: TaskConfig, fields: Any) -> dict[str, str]:
    """The writer's model inputs: each non-empty text within its field's limit (other fields are not asked for)."""
    if not isinstance(fields, dict):
        raise invalid(tr("`fields` must be an object."), FieldProblem("fields", tr("must be an object")))
    specs = {spec.name: spec for spec in config.input_fields}
    problems, inputs = [], {}
    for name in config.model_inputs:
        spec = specs.get(name)
        if spec is None:
            continue  # a context field: read from the context
        value = fields.get(name)
        if not isinstance(value, str) or not value.strip():
            problems.append(FieldProblem(f"fields.{name}", tr("must be non-empty text")))
        elif len(value) > spec.max_length:
            problems.append(FieldProblem(f"fields.{name}", tr("longer than {max} characters", max=spec.max_length)))
        elif problem := text_problem(value):
            problems.append(FieldProblem(f"fields.{name}", problem))
        else:
            inputs[name] = value
    if problems:
        raise invalid(tr("The example is not valid."), *problems)
    return inputs
