"""Whether the generator a task config names for suggestions (docs/design.md §4.1e) can be asked: a generative model
the target Triton serves now, or a registered, enabled LLM endpoint. Checked when a config is created or changed, so
that a misspelt name is an InputError on its field rather than a failure at the author's first "inspire me"."""

from __future__ import annotations

from server.core.errors import FieldProblem
from server.core.i18n import tr
from server.core.services import Services
from server.generation.endpoints import service as endpoints
from server.tasks.config import TaskConfig
from server.tasks.served_models import served_target_models

FIELD = "config.suggestions.generator"


async def generator_problems(services: Services | None, config: TaskConfig) -> list[FieldProblem]:
    generator = config.suggestions.generator
    if generator is None or services is None:
        return []
    if generator.endpoint is not None:
        if not await endpoints.endpoint_usable(generator.endpoint):
            return [FieldProblem(f"{FIELD}.endpoint", tr("no enabled LLM endpoint has this name"))]
        return []
    served = await served_target_models(services, None)
    if not any(m.name == generator.model and m.ready and "text_output" in m.outputs for m in served):
        return [FieldProblem(f"{FIELD}.model", tr("is not a generative model the target Triton serves now"))]
    return []
