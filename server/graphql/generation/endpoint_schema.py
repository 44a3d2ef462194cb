"""LLM endpoints in the schema: the admins' registry, the endpoints a task's owners may choose as a round's target, and
the usage report (owners: their task's; admins: all)."""

from __future__ import annotations

import strawberry
from strawberry.types import Info

from server import permissions
from server.generation.endpoints import service, usage
from server.graphql.core.guard import authorize
from server.graphql.generation.endpoint_types import GenerationUsageReport, LlmEndpointChoice, LlmEndpointType
from server.graphql.generation.mutations.register_llm_endpoint import register_llm_endpoint
from server.graphql.generation.mutations.remove_llm_endpoint import remove_llm_endpoint
from server.graphql.generation.mutations.update_llm_endpoint import update_llm_endpoint
from server.graphql.tasks.visibility import owned_task
from server.tasks.service import load_config


@strawberry.type
class LlmEndpointMutations:
    register_llm_endpoint = register_llm_endpoint
    update_llm_endpoint = update_llm_endpoint
    remove_llm_endpoint = remove_llm_endpoint


@strawberry.type
class LlmEndpointQueries:
    @strawberry.field(description="Admins: every registered LLM endpoint, by name (keys are never returned: `hasKey`).")
    async def llm_endpoints(self, info: Info) -> list[LlmEndpointType]:
        await authorize(info, permissions.manage_llm_endpoints)
        return [LlmEndpointType.of(view) for view in await service.endpoints()]

    @strawberry.field(
        description="To the task's owners and admins: the enabled LLM endpoints its rounds may name as their target "
        "(`targetModels: [{endpoint: name}]`), by name; empty unless the task is generative."
    )
    async def llm_endpoint_choices(self, info: Info, task_code: str) -> list[LlmEndpointChoice]:
        task = await owned_task(info, task_code)
        await authorize(info, permissions.list_llm_endpoint_choices, task["id"])
        return [LlmEndpointChoice.of(choice) for choice in await service.choices(load_config(task).kind)]

    @strawberry.field(
        description="Tokens spent on LLM endpoints and their estimated cost over the last `days` UTC days (1–366): of "
        "one task for its owners and admins (`taskCode`), of every task for admins."
    )
    async def generation_usage(self, info: Info, task_code: str | None = None, days: int = 30) -> GenerationUsageReport:
        task_id = None
        if task_code is not None:
            task_id = (await owned_task(info, task_code))["id"]
        await authorize(info, permissions.read_generation_usage, task_id)
        return GenerationUsageReport.of(await usage.report(days, task_id))
