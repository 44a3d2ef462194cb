"""Asking a round's target model(s) about an example, and what their answers make of it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from server.annotation import fooling
from server.annotation.records import ExampleStatus, Verdict
from server.core.inference import Prediction, predict
from server.core.services import Services
from server.core.target_models import serving_client
from server.tasks.config import TaskConfig


def verdict_of(fooled: bool | None, status: str | None = None) -> Verdict:
    if status == ExampleStatus.AWAITING_CLAIM:
        return Verdict.AWAITING_CLAIM
    return Verdict.PENDING if fooled is None else (Verdict.FOOLED if fooled else Verdict.NOT_FOOLED)


def status_after_verdict(config: TaskConfig, fooled: bool | None, answered: bool = False) -> ExampleStatus:
    """`answered`: the model did answer (a null verdict then means the annotator decides: fooling ask_user; or the
    validators: validator_rating, open for their votes at once)."""
    if fooled is None and answered and fooling.validators_decide(config):
        return ExampleStatus.OPEN
    if fooled is None:
        return ExampleStatus.AWAITING_CLAIM if answered and fooling.annotator_decides(config) else ExampleStatus.PENDING
    return ExampleStatus.OPEN if fooled or config.validation.validate_non_fooling else ExampleStatus.CLOSED


def choose_targets(config: TaskConfig, targets: list[dict]) -> list[dict]:
    if config.target_selection == "all":
        return targets
    return [random.choice(targets)]


async def ask_models(services: Services, config: TaskConfig, targets: list[dict], model_fields: dict) -> list[Prediction]:
    timeout, vectors = services.settings.triton_timeout_s, config.duplicates.wants_vectors
    return list(
        await asyncio.gather(
            *(
                predict(
                    serving_client(services, t["name"]), config, t["name"], t.get("version", ""), model_fields, timeout, vectors
                )
                for t in targets
            )
        )
    )


def model_fields(config: TaskConfig, context: dict, stored_input: dict) -> dict:
    """What the model is asked: the context's fields and the annotator's model inputs."""
    return {**context["fields"], **{k: v for k, v in stored_input.items() if k in config.model_inputs}}


def model_output_document(predictions: list[Prediction]) -> dict[str, Any]:
    first = dict(predictions[0].output)
    if len(predictions) > 1:
        first["by_model"] = [{"model": p.model_name, "version": p.model_version, **p.output} for p in predictions]
    return first
