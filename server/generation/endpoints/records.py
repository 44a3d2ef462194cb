"""Rows of the LLM endpoints' tables as typed records."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TypedDict


class EndpointRow(TypedDict):
    """An endpoint as stored; `api_key_sealed` is the encrypted key (crypto.py), empty when it has none. Only
    streaming.py opens it: no answer, log line or message ever carries it."""

    id: int
    name: str
    base_url: str
    model: str
    api_key_sealed: str
    timeout_s: float
    max_concurrency: int
    tokens_per_user_per_day: int  # 0: no limit
    tokens_per_task_per_day: int  # 0: no limit
    price_per_1k_prompt_tokens: Decimal
    price_per_1k_completion_tokens: Decimal
    enabled: bool
    created_at: datetime
    updated_at: datetime


class UsageRow(TypedDict):
    """A day's use of one endpoint for one task, over its users (the usage report's line)."""

    day: date
    endpoint: str
    task_code: str | None  # None: the task is gone
    users: int
    calls: int
    errors: int
    prompt_tokens: int
    completion_tokens: int
    estimated_cost: Decimal
