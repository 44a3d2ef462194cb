"""The LLM endpoints' query room: the registry and the daily usage counts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, cast

from server.core.sql import Query
from server.generation.endpoints.records import EndpointRow, UsageRow

COLUMNS = """id, name, base_url, model, api_key_sealed, timeout_s, max_concurrency, tokens_per_user_per_day,
    tokens_per_task_per_day, price_per_1k_prompt_tokens, price_per_1k_completion_tokens, enabled, created_at, updated_at"""
# The columns an update may set (service.py passes only these names).
SETTABLE = (
    "base_url",
    "model",
    "api_key_sealed",
    "timeout_s",
    "max_concurrency",
    "tokens_per_user_per_day",
    "tokens_per_task_per_day",
    "price_per_1k_prompt_tokens",
    "price_per_1k_completion_tokens",
    "enabled",
)

# Registry ---------------------------------------------------------------------------------------------------------

ALL = Query(f"SELECT {COLUMNS} FROM llm_endpoints ORDER BY name")
ENABLED = Query(f"SELECT {COLUMNS} FROM llm_endpoints WHERE enabled ORDER BY name")
BY_NAME = Query(f"SELECT {COLUMNS} FROM llm_endpoints WHERE name = :name")
INSERT = Query(f"""
    INSERT INTO llm_endpoints (name, base_url, model, api_key_sealed, timeout_s, max_concurrency, tokens_per_user_per_day,
                               tokens_per_task_per_day, price_per_1k_prompt_tokens, price_per_1k_completion_tokens,
                               enabled, created_by)
    VALUES (:name, :base_url, :model, :api_key_sealed, :timeout_s, :max_concurrency, :tokens_per_user_per_day,
            :tokens_per_task_per_day, :price_per_1k_prompt_tokens, :price_per_1k_completion_tokens, :enabled, :actor)
    ON CONFLICT (name) DO NOTHING
    RETURNING {COLUMNS}
""")
# Each column keeps its value unless its `set_<column>` flag is true (one statement for any subset of changes).
UPDATE = Query(
    "UPDATE llm_endpoints SET "
    + ", ".join(f"{c} = CASE WHEN :set_{c}::boolean THEN :{c} ELSE {c} END" for c in SETTABLE)
    + f", updated_at = now() WHERE name = :name RETURNING {COLUMNS}"
)
DELETE = Query("DELETE FROM llm_endpoints WHERE name = :name RETURNING id")


async def all_endpoints() -> list[EndpointRow]:
    return cast(list[EndpointRow], await ALL.rows())


async def enabled_endpoints() -> list[EndpointRow]:
    return cast(list[EndpointRow], await ENABLED.rows())


async def endpoint_by_name(name: str) -> EndpointRow | None:
    return cast(EndpointRow | None, await BY_NAME.row(name=name))


async def insert_endpoint(values: dict[str, Any], actor: int) -> EndpointRow | None:
    """None when the name is taken."""
    return cast(EndpointRow | None, await INSERT.row(**values, actor=actor))


async def update_endpoint(name: str, changes: dict[str, Any]) -> EndpointRow | None:
    arguments: dict[str, Any] = {"name": name}
    for column in SETTABLE:
        arguments[f"set_{column}"] = column in changes
        arguments[column] = changes.get(column)
    return cast(EndpointRow | None, await UPDATE.row(**arguments))


async def delete_endpoint(name: str) -> int | None:
    row = await DELETE.row(name=name)
    return row["id"] if row else None


# Usage ------------------------------------------------------------------------------------------------------------

SPENT = Query("""
    SELECT coalesce(sum(prompt_tokens + completion_tokens) FILTER (WHERE "user" = :user), 0)::bigint AS by_user,
           coalesce(sum(prompt_tokens + completion_tokens) FILTER (WHERE task = :task), 0)::bigint AS by_task
      FROM generation_usage
     WHERE endpoint = :endpoint AND day = :day AND ("user" = :user OR task = :task)
""")
RECORD = Query("""
    INSERT INTO generation_usage AS u (endpoint, "user", task, day, calls, errors, prompt_tokens, completion_tokens,
                                       estimated_cost)
    VALUES (:endpoint, :user, :task, :day, 1, :errors, :prompt_tokens, :completion_tokens, :cost)
    ON CONFLICT ON CONSTRAINT generation_usage_key DO UPDATE
       SET calls = u.calls + 1, errors = u.errors + excluded.errors,
           prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
           completion_tokens = u.completion_tokens + excluded.completion_tokens,
           estimated_cost = u.estimated_cost + excluded.estimated_cost
""")
# One line per day, endpoint and task, newest day first; `task` null: every task.
REPORT = Query("""
    SELECT u.day, u.endpoint, t.code AS task_code, count(DISTINCT u."user")::int AS users, sum(u.calls)::int AS calls,
           sum(u.errors)::int AS errors, sum(u.prompt_tokens)::bigint AS prompt_tokens,
           sum(u.completion_tokens)::bigint AS completion_tokens, sum(u.estimated_cost) AS estimated_cost
      FROM generation_usage u LEFT JOIN tasks t ON t.id = u.task
     WHERE u.day >= :since AND (:task::int IS NULL OR u.task = :task::int)
     GROUP BY u.day, u.endpoint, t.code
     ORDER BY u.day DESC, u.endpoint, t.code
     LIMIT :limit
""")


async def spent(endpoint: str, user: int, task: int, day: date) -> tuple[int, int]:
    """Tokens spent today on the endpoint by the user (all tasks) and for the task (all users)."""
    row = await SPENT.row(endpoint=endpoint, user=user, task=task, day=day)
    assert row is not None
    return row["by_user"], row["by_task"]


async def record_usage(
    endpoint: str, user: int | None, task: int, day: date, prompt_tokens: int, completion_tokens: int, cost: Decimal, failed: bool
) -> None:
    await RECORD.execute(
        endpoint=endpoint,
        user=user,
        task=task,
        day=day,
        errors=int(failed),
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost=cost,
    )


async def usage_report(since: date, task: int | None, limit: int) -> list[UsageRow]:
    return cast(list[UsageRow], await REPORT.rows(since=since, task=task, limit=limit))
