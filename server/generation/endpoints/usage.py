"""Tokens spent on LLM endpoints: the daily budgets checked before a call, the counts recorded after it (a failed or
cut call counts what came), and the usage report (owners: their task's; admins: all).

Days are UTC days: a budget resets at 00:00 UTC. The check reads the counts before the call, so calls running at once
may together pass a budget by at most their own replies (max_concurrency × max_tokens): a soft limit, not a bill."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from server.core.i18n import tr
from server.generation.endpoints import queries
from server.generation.endpoints.records import EndpointRow, UsageRow
from server.generation.streaming import GenerationFailed

MAX_DAYS = 366
MAX_LINES = 2000
THOUSAND = Decimal(1000)


class BudgetExhausted(GenerationFailed):
    """A daily token budget of the endpoint is used up; the message says which and when it resets."""


def today() -> date:
    return datetime.now(UTC).date()


def _resets_in() -> tuple[int, int]:
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    minutes = max(1, int((midnight - now).total_seconds() // 60))
    return minutes // 60, minutes % 60


async def check_budgets(endpoint: EndpointRow, user_id: int, task_id: int) -> None:
    """Raise BudgetExhausted when today's tokens for this user, or for this task, reached the endpoint's budget."""
    per_user, per_task = endpoint["tokens_per_user_per_day"], endpoint["tokens_per_task_per_day"]
    if not per_user and not per_task:
        return
    by_user, by_task = await queries.spent(endpoint["name"], user_id, task_id, today())
    hours, minutes = _resets_in()
    if per_user and by_user >= per_user:
        raise BudgetExhausted(
            tr(
                "You have used your daily budget of {budget} tokens on the model '{name}'; it resets at 00:00 UTC "
                "(in {hours} h {minutes} min).",
                budget=per_user,
                name=endpoint["name"],
                hours=hours,
                minutes=minutes,
            )
        )
    if per_task and by_task >= per_task:
        raise BudgetExhausted(
            tr(
                "This task has used its daily budget of {budget} tokens on the model '{name}'; it resets at 00:00 UTC "
                "(in {hours} h {minutes} min).",
                budget=per_task,
                name=endpoint["name"],
                hours=hours,
                minutes=minutes,
            )
        )


def estimated_cost(endpoint: EndpointRow, prompt_tokens: int, completion_tokens: int) -> Decimal:
    """At the endpoint's prices now (kept with the counts: a later price change does not rewrite the past)."""
    cost = (
        Decimal(prompt_tokens) * endpoint["price_per_1k_prompt_tokens"]
        + Decimal(completion_tokens) * endpoint["price_per_1k_completion_tokens"]
    ) / THOUSAND
    return cost.quantize(Decimal("0.000001"))


async def record(
    endpoint: EndpointRow, user_id: int | None, task_id: int, prompt_tokens: int, completion_tokens: int, *, failed: bool
) -> None:
    await queries.record_usage(
        endpoint["name"],
        user_id,
        task_id,
        today(),
        prompt_tokens,
        completion_tokens,
        estimated_cost(endpoint, prompt_tokens, completion_tokens),
        failed,
    )


@dataclass(frozen=True)
class UsageReport:
    days: int
    lines: list[UsageRow]

    @property
    def prompt_tokens(self) -> int:
        return sum(line["prompt_tokens"] for line in self.lines)

    @property
    def completion_tokens(self) -> int:
        return sum(line["completion_tokens"] for line in self.lines)

    @property
    def calls(self) -> int:
        return sum(line["calls"] for line in self.lines)

    @property
    def errors(self) -> int:
        return sum(line["errors"] for line in self.lines)

    @property
    def estimated_cost(self) -> Decimal:
        return sum((line["estimated_cost"] for line in self.lines), Decimal(0))


async def report(days: int, task_id: int | None) -> UsageReport:
    """The last `days` UTC days (today included), of one task or of all; at most MAX_LINES lines."""
    days = max(1, min(days, MAX_DAYS))
    since = today() - timedelta(days=days - 1)
    return UsageReport(days, await queries.usage_report(since, task_id, MAX_LINES))
