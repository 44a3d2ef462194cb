"""suggestExamples and the assistance an example records (docs/design.md §4.1e).

A request (idempotent on its client UUID: a retry answers the suggestions already issued, without asking again) checks
the round like a sandbox trial, counts against its own rate limit, asks the generator (generator.py) or runs the
perturbation search (perturbing.py), and stores each candidate as an issued suggestion. An example that names one
(createExample's `suggestionId`, submitConversation's) records it only if it was issued to its author in its round, and
whether the author changed its text: the claim is checked against the stored text, so it cannot be forged.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.annotation.suggestions import generator, perturbing, queries
from server.core import db, rate_limits
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.jsonutil import to_json
from server.core.rate_limits import Action
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.config import TaskConfig


class Kind(StrEnum):
    GENERATOR = "generator"
    PERTURBATION = "perturbation"


@dataclass(frozen=True)
class Request:
    round_id: int
    context_id: int
    kind: Kind
    client_id: uuid.UUID
    fields: Any = None  # the author's draft (input fields); the perturbation search needs it


@dataclass(frozen=True)
class Issued:
    id: int
    kind: str
    source: str
    version: str
    fields: dict[str, str]
    label: str | None
    prediction: dict[str, Any] | None  # perturbation: {label, confidence, flipped, edits}

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Issued:
        return cls(row["id"], row["kind"], row["source"], row["source_version"], row["fields"], row["label"], row["prediction"])


async def suggest(services: Services, user_id: int, request: Request, address: str | None = None) -> list[Issued]:
    """The candidates issued for this request (the stored ones when its client UUID was seen before)."""
    stored = await queries.by_request(request.client_id)
    if stored:
        if stored[0]["user"] != user_id:
            raise ServiceError("CONFLICT", tr("This client UUID belongs to another user's request."))
        return [Issued.of(row) for row in stored]
    row = await _load(request.round_id, request.context_id, user_id)
    config = TaskConfig.model_validate_json(row["config"])  # a rare, rate-limited request: no cache
    context_fields = row["context_fields"] or {}
    field_name, max_length = generator.field_for(config)
    draft = _draft(request.fields, field_name, max_length, required=request.kind == Kind.PERTURBATION)
    if request.kind == Kind.PERTURBATION:
        if not config.suggestions.perturbation:
            raise invalid(
                tr("This task does not offer the perturbation search (its config does not turn it on)."),
                FieldProblem("kind", tr("not offered by this task")),
            )
    elif config.suggestions.generator is None:
        raise invalid(
            tr("This task has no generator for suggestions (its config names none)."),
            FieldProblem("kind", tr("not offered by this task")),
        )
    await rate_limits.take(services.redis, services.settings, Action.SUGGEST, account=user_id, address=address)
    if request.kind == Kind.GENERATOR:
        brief = generator.TaskBrief(row["task"], row["description"] or "", row["instructions"] or "")
        made = await generator.generate_candidates(services, config, brief, context_fields, user_id=user_id, draft=draft)
        rows = [
            _row(request, user_id, i, made.source, made.version, {field_name: c.text}, c.label, None)
            for i, c in enumerate(made.candidates)
        ]
    else:
        rows = await _perturbed(services, config, row, request, user_id, field_name, draft)
    async with db.transaction():
        await queries.insert_once(request.client_id, rows)
    return [Issued.of(stored_row) for stored_row in await queries.by_request(request.client_id)]


async def _perturbed(
    services: Services, config: TaskConfig, row: dict, request: Request, user_id: int, field_name: str, draft: str
) -> list[dict[str, Any]]:
    targets = row["target_models"] or []
    if not targets:
        raise ServiceError("MODEL_UNAVAILABLE", tr("This round has no target model to ask."))
    target = targets[0]  # the round's (first) target, as explainPrediction asks
    inputs = _inputs(config, request.fields, row["context_fields"] or {})
    result = await perturbing.perturb(
        services, config, target, {**inputs, field_name: draft}, field_name, context_fields=row["context_fields"] or {}
    )
    return [
        _row(
            request,
            user_id,
            i,
            str(target["name"]),
            str(target.get("version") or ""),
            {field_name: found.text},
            None,
            {"label": found.label, "confidence": found.confidence, "flipped": found.flipped, "edits": list(found.edits)},
        )
        for i, found in enumerate(result.found)
    ]


def _row(
    request: Request, user_id: int, position: int, source: str, version: str, fields: dict, label: str | None, prediction: Any
) -> dict[str, Any]:
    return {
        "request_id": request.client_id,
        "position": position,
        "user": user_id,
        "round": request.round_id,
        "context": request.context_id,
        "kind": request.kind.value,
        "source": source[:200],
        "version": version[:200],
        "fields": to_json(fields),
        "label": label,
        "prediction": to_json(prediction) if prediction is not None else None,
    }


async def _load(round_id: int, context_id: int, user_id: int) -> dict[str, Any]:
    row = await queries.load(round_id, context_id, user_id)
    if row is None or not row["may_write"]:  # a hidden task's round is as good as missing to others
        raise not_found(tr("That round"))
    if row["end_at"] is not None:
        raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
    if row["context_id"] is None or row["context_round"] != row["id"]:
        raise not_found(tr("That context (in this round)"))
    return row


def _draft(fields: Any, field_name: str, max_length: int, *, required: bool) -> str:
    value = fields.get(field_name) if isinstance(fields, dict) else None
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise invalid(tr("The draft is not valid."), FieldProblem(f"fields.{field_name}", tr("must be non-empty text")))
    problem = tr("longer than {max} characters", max=max_length) if len(value) > max_length else text_problem(value)
    if problem:
        raise invalid(tr("The draft is not valid."), FieldProblem(f"fields.{field_name}", problem))
    return value


def _inputs(config: TaskConfig, fields: Any, context_fields: Mapping[str, Any]) -> dict[str, str]:
    """Every field the model reads: context fields from the context, written ones from the draft (each checked)."""
    specs = {spec.name: spec for spec in config.input_fields}
    out: dict[str, str] = {}
    for name in config.model_inputs:
        if name in specs:
            out[name] = _draft(fields, name, specs[name].max_length, required=True)
        else:
            out[name] = str(context_fields.get(name) or "")
    return out


# --- the example's record ------------------------------------------------------------------------------------------


async def assistance(user_id: int, round_id: int, suggestion_id: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    """What an example written from this suggestion records; INVALID_INPUT (field `suggestionId`) unless it was
    issued to this author in this round."""
    row = await queries.by_id(suggestion_id)
    if row is None or row["user"] != user_id or row["round"] != round_id:
        raise invalid(
            tr("That suggestion was not issued to you in this round."),
            FieldProblem("suggestionId", tr("not a suggestion issued to you in this round")),
        )
    suggested: dict[str, str] = row["fields"] or {}
    edited = any(_same_text(fields.get(name)) != _same_text(text) for name, text in suggested.items())
    digest = hashlib.sha256(to_json(suggested).encode()).hexdigest()[:16]
    return {
        "suggestion_id": row["id"],
        "kind": row["kind"],
        "source": row["source"],
        "version": row["source_version"],
        "hash": digest,
        "edited": edited,
    }


def _same_text(value: Any) -> str:
    return " ".join(str(value or "").split())
