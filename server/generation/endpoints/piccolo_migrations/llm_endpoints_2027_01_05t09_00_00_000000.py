"""LLM endpoints as generative targets (issue #30 point 4): the registry (the key sealed, crypto.py) and the daily
usage per endpoint, user and task (written as SQL; declared in server/generation/endpoints/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2027-01-05T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "llm_endpoints, generation_usage"

FORWARDS = (
    """
CREATE TABLE IF NOT EXISTS llm_endpoints (
  id SERIAL PRIMARY KEY,
  name VARCHAR(64) NOT NULL UNIQUE,
  base_url VARCHAR(500) NOT NULL,
  model VARCHAR(200) NOT NULL,
  api_key_sealed TEXT NOT NULL DEFAULT '',
  timeout_s DOUBLE PRECISION NOT NULL DEFAULT 30,
  max_concurrency INTEGER NOT NULL DEFAULT 4,
  tokens_per_user_per_day BIGINT NOT NULL DEFAULT 0,
  tokens_per_task_per_day BIGINT NOT NULL DEFAULT 0,
  price_per_1k_prompt_tokens NUMERIC(12, 6) NOT NULL DEFAULT 0,
  price_per_1k_completion_tokens NUMERIC(12, 6) NOT NULL DEFAULT 0,
  enabled BOOLEAN NOT NULL DEFAULT true,
  created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    """
CREATE TABLE IF NOT EXISTS generation_usage (
  id SERIAL PRIMARY KEY,
  endpoint VARCHAR(64) NOT NULL,
  "user" INTEGER REFERENCES users (id) ON DELETE CASCADE,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  day DATE NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  prompt_tokens BIGINT NOT NULL DEFAULT 0,
  completion_tokens BIGINT NOT NULL DEFAULT 0,
  estimated_cost NUMERIC(16, 6) NOT NULL DEFAULT 0,
  CONSTRAINT generation_usage_key UNIQUE NULLS NOT DISTINCT (endpoint, "user", task, day)
)""",
    'CREATE INDEX IF NOT EXISTS generation_usage_user_day ON generation_usage (endpoint, "user", day)',
    "CREATE INDEX IF NOT EXISTS generation_usage_task_day ON generation_usage (task, day)",
)

BACKWARDS = ("DROP TABLE IF EXISTS generation_usage", "DROP TABLE IF EXISTS llm_endpoints")


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="llm_endpoints", description=DESCRIPTION)

    async def run():
        from server.generation.endpoints.tables import LlmEndpoint

        for statement in FORWARDS:
            await LlmEndpoint.raw(statement)

    async def run_backwards():
        from server.generation.endpoints.tables import LlmEndpoint

        for statement in BACKWARDS:
            await LlmEndpoint.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
