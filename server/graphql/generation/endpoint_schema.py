"""LLM endpoints in the schema: the admins' registry and the usage report (owners: their task's; admins: all)."""

from __future__ import annotations

import strawberry
from strawberry.types import Info

from server import permissions
from server.generation.endpoints import service, usage
from server.graphql.core.guard import authorize
from server.graphql.generation.endpoint_types import GenerationUsageReport, LlmEndpointType
from server.graphql.generation.mutations.register_llm_endpoint import register_llm_endpoint
from server.graphql.generation.mutations.remove_llm_endpoint import remove_llm_endpoint
from server.graphql.generation.mutations.update_llm_endpoint import update_llm_endpoint
from server.graphql.tasks.visibility import owned_task


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
        description="Tokens spent on LLM endpoints and their estimated cost over the last `days` UTC days (1–366): of "
        "one task for its owners and admins (`taskCode`), of every task for admins."
    )
    async def generation_usage(self, info: Info, task_code: str | None = None, days: int = 30) -> GenerationUsageReport:
        task_id = None
        if task_code is not None:
            task_id = (await owned_task(info, task_code))["id"]
        await authorize(info, permissions.read_generation_usage, task_id)
        return GenerationUsageReport.of(await usage.report(days, task_id))
