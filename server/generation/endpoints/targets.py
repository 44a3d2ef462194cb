"""An LLM endpoint as a round's target (server/tasks/targets.py asks here): stored in the round's target_models as
`{"name": "endpoint:<name>", "endpoint": "<name>", "version": ""}`, accepted when the task is generative and the
endpoint is registered, enabled and answers a one-token smoke request now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.core.errors import FieldProblem
from server.core.i18n import tr
from server.core.services import Services
from server.generation.endpoints import rules
from server.generation.endpoints.streaming import smoke_test
from server.tasks.records import TargetModelRef

PREFIX = "endpoint:"
SMOKE_TIMEOUT_S = 60.0  # the endpoint's own timeout_s bounds it too


def target_name(endpoint: str) -> str:
    """The name a round's target list gives the endpoint (never a Triton model's: ':' is not allowed in those)."""
    return PREFIX + endpoint


def shape_problem(index: int, endpoint: str, other_fields: bool) -> FieldProblem | None:
    """The problem with the request's form alone (no I/O)."""
    field = f"targetModels.{index}.endpoint"
    if other_fields:
        return FieldProblem(f"targetModels.{index}", tr("give either endpoint, or name (and version), or modelId"))
    if not rules.NAME.match(endpoint.strip()):
        return FieldProblem(field, tr("is not an LLM endpoint's name"))
    return None


async def endpoint_target(
    task: Mapping[str, Any], kind: str | None, index: int, endpoint: str, services: Services | None
) -> TargetModelRef | FieldProblem:
    """The round's target for `endpoint`, or the problem (checked live when `services` is given)."""
    field = f"targetModels.{index}.endpoint"
    name = endpoint.strip()
    if kind is not None and kind != "generative":
        return FieldProblem(field, tr("an LLM endpoint can only be the target of a generative task"))
    if services is not None:
        problem = await smoke_test(services, name, task["id"], SMOKE_TIMEOUT_S)
        if problem:
            return FieldProblem(
                field, tr("the LLM endpoint '{name}' cannot judge this round: {problem}", name=name, problem=problem)
            )
    return {"name": target_name(name), "endpoint": name, "version": ""}
