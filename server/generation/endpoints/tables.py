"""The LLM endpoints' tables (created by piccolo_migrations/, written as SQL; declared here for Piccolo)."""

from decimal import Decimal

from piccolo.columns import BigInt, Boolean, Date, DoublePrecision, ForeignKey, Integer, Numeric, Text, Timestamptz, Varchar
from piccolo.columns.base import OnDelete
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.tasks.tables import Task


class LlmEndpoint(Table, tablename="llm_endpoints"):
    """An OpenAI-compatible server an admin registered (server/generation/endpoints/service.py)."""

    name = Varchar(length=64, unique=True)
    base_url = Varchar(length=500)
    model = Varchar(length=200)
    api_key_sealed = Text(default="")  # crypto.seal(key); empty: no key
    timeout_s = DoublePrecision(default=30.0)
    max_concurrency = Integer(default=4)
    tokens_per_user_per_day = BigInt(default=0)  # 0: no limit
    tokens_per_task_per_day = BigInt(default=0)
    price_per_1k_prompt_tokens = Numeric(digits=(12, 6), default=Decimal(0))
    price_per_1k_completion_tokens = Numeric(digits=(12, 6), default=Decimal(0))
    enabled = Boolean(default=True)
    created_by = ForeignKey(User, null=True, on_delete=OnDelete.set_null)
    created_at = Timestamptz(default=TimestamptzNow())
    updated_at = Timestamptz(default=TimestamptzNow())


class GenerationUsage(Table, tablename="generation_usage"):
    """Tokens one user spent on one endpoint for one task in one UTC day (user null: the round-opening smoke
    request). Keyed by the endpoint's name, so the counts outlive an endpoint removed and registered again."""

    endpoint = Varchar(length=64)
    user = ForeignKey(User, null=True, on_delete=OnDelete.cascade)
    task = ForeignKey(Task, on_delete=OnDelete.cascade)
    day = Date()
    calls = Integer(default=0)
    errors = Integer(default=0)
    prompt_tokens = BigInt(default=0)
    completion_tokens = BigInt(default=0)
    estimated_cost = Numeric(digits=(16, 6), default=Decimal(0))
