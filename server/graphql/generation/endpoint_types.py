"""GraphQL types of LLM endpoints and their usage. An endpoint says whether a key is stored, never the key; the choice a
task's owners see says neither, nor the address."""

from __future__ import annotations

from datetime import datetime

import strawberry

from server.generation.endpoints.records import UsageRow
from server.generation.endpoints.service import EndpointChoice, EndpointView
from server.generation.endpoints.usage import UsageReport


@strawberry.type(name="LlmEndpoint", description="An OpenAI-compatible server an admin registered as a generative target.")
class LlmEndpointType:
    name: str = strawberry.field(description="Its identifier; a round names it as the target `endpoint:<name>`.")
    base_url: str = strawberry.field(description="The OpenAI-compatible API's base address, e.g. https://host/v1.")
    model: str = strawberry.field(description="The model id the server is asked for.")
    has_key: bool = strawberry.field(description="Whether an API key is stored (it is never returned).")
    timeout_s: float = strawberry.field(description="The longest one call may take, in seconds.")
    max_concurrency: int = strawberry.field(description="Calls at once, over every API process.")
    tokens_per_user_per_day: int = strawberry.field(description="Each user's daily token budget (0: no limit).")
    tokens_per_task_per_day: int = strawberry.field(description="Each task's daily token budget (0: no limit).")
    price_per_1k_prompt_tokens: float
    price_per_1k_completion_tokens: float
    enabled: bool
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, view: EndpointView) -> LlmEndpointType:
        return cls(
            name=view.name,
            base_url=view.base_url,
            model=view.model,
            has_key=view.has_key,
            timeout_s=view.timeout_s,
            max_concurrency=view.max_concurrency,
            tokens_per_user_per_day=view.tokens_per_user_per_day,
            tokens_per_task_per_day=view.tokens_per_task_per_day,
            price_per_1k_prompt_tokens=float(view.price_per_1k_prompt_tokens),
            price_per_1k_completion_tokens=float(view.price_per_1k_completion_tokens),
            enabled=view.enabled,
            created_at=view.created_at,
            updated_at=view.updated_at,
        )


@strawberry.type(
    description="An enabled LLM endpoint a generative task's owners may name as a round's target "
    "(`targetModels: [{endpoint: name}]`); the round lists it as `endpoint:<name>`."
)
class LlmEndpointChoice:
    name: str = strawberry.field(description="The endpoint's identifier, to give as `endpoint` in `targetModels`.")
    model: str = strawberry.field(description="The model id the server is asked for.")
    timeout_s: float = strawberry.field(description="The longest one reply may take, in seconds.")
    tokens_per_user_per_day: int = strawberry.field(description="Each user's daily token budget (0: no limit).")
    tokens_per_task_per_day: int = strawberry.field(description="Each task's daily token budget (0: no limit).")

    @classmethod
    def of(cls, choice: EndpointChoice) -> LlmEndpointChoice:
        return cls(
            name=choice.name,
            model=choice.model,
            timeout_s=choice.timeout_s,
            tokens_per_user_per_day=choice.tokens_per_user_per_day,
            tokens_per_task_per_day=choice.tokens_per_task_per_day,
        )


@strawberry.type(description="One UTC day's use of one LLM endpoint for one task (over its users).")
class GenerationUsageLine:
    day: str = strawberry.field(description="The UTC day, YYYY-MM-DD.")
    endpoint: str
    task_code: str | None = strawberry.field(description="null: the task is gone.")
    users: int
    calls: int
    errors: int = strawberry.field(description="Calls that failed (their tokens so far are counted).")
    prompt_tokens: float = strawberry.field(description="A Float: sums may pass a 32-bit Int.")
    completion_tokens: float
    estimated_cost: float = strawberry.field(description="At the endpoint's prices when each call was made.")

    @classmethod
    def of(cls, row: UsageRow) -> GenerationUsageLine:
        return cls(
            day=row["day"].isoformat(),
            endpoint=row["endpoint"],
            task_code=row["task_code"],
            users=row["users"],
            calls=row["calls"],
            errors=row["errors"],
            prompt_tokens=float(row["prompt_tokens"]),
            completion_tokens=float(row["completion_tokens"]),
            estimated_cost=float(row["estimated_cost"]),
        )


@strawberry.type(description="Tokens spent on LLM endpoints over the last `days` UTC days, and their estimated cost.")
class GenerationUsageReport:
    days: int
    lines: list[GenerationUsageLine] = strawberry.field(description="Newest day first.")
    prompt_tokens: float
    completion_tokens: float
    calls: int
    errors: int
    estimated_cost: float = strawberry.field(description="In the currency the endpoints' prices are given in.")

    @classmethod
    def of(cls, report: UsageReport) -> GenerationUsageReport:
        return cls(
            days=report.days,
            lines=[GenerationUsageLine.of(line) for line in report.lines],
            prompt_tokens=float(report.prompt_tokens),
            completion_tokens=float(report.completion_tokens),
            calls=report.calls,
            errors=report.errors,
            estimated_cost=float(report.estimated_cost),
        )
