"""Webhooks: hooks per task, their deliveries and attempts (written as SQL; declared in server/webhooks/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-11T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "webhooks"

STATEMENTS = (
    """
CREATE TABLE IF NOT EXISTS webhooks (
  id SERIAL PRIMARY KEY,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events VARCHAR(32)[] NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  secret_salt VARCHAR(64) NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT true,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  disabled_reason TEXT,
  disabled_at TIMESTAMPTZ,
  created_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS webhooks_task ON webhooks (task)",
    """
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id SERIAL PRIMARY KEY,
  webhook INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id UUID NOT NULL,
  event_type VARCHAR(32) NOT NULL,
  payload TEXT NOT NULL,
  status VARCHAR(10) NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ,
  last_status_code INTEGER,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  delivered_at TIMESTAMPTZ,
  CONSTRAINT webhook_deliveries_once_per_event UNIQUE (webhook, event_id)
)""",
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_page ON webhook_deliveries (webhook, id DESC)",
    "CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'",
    """
CREATE TABLE IF NOT EXISTS webhook_attempts (
  id SERIAL PRIMARY KEY,
  delivery INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  duration_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
  at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT webhook_attempts_once UNIQUE (delivery, number)
)""",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="webhooks", description=DESCRIPTION)

    async def run():
        from server.webhooks.tables import Webhook

        for statement in STATEMENTS:
            await Webhook.raw(statement)

    async def run_backwards():
        from server.webhooks.tables import Webhook

        for table in ("webhook_attempts", "webhook_deliveries", "webhooks"):
            await Webhook.raw(f"DROP TABLE IF EXISTS {table}")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
