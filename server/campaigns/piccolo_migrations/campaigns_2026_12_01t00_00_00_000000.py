"""Crowd campaigns: campaigns, their workers, the payments ledger and approved submissions (written as SQL; declared
in server/campaigns/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-01T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "crowd campaigns"

# (braces are Piccolo's placeholders, hence jsonb_build_object() for an empty object)
STATEMENTS = (
    """
CREATE TABLE IF NOT EXISTS campaigns (
  id SERIAL PRIMARY KEY,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
  platform VARCHAR(16) NOT NULL,
  title VARCHAR(200) NOT NULL,
  status VARCHAR(8) NOT NULL DEFAULT 'draft',
  code VARCHAR(32) NOT NULL UNIQUE,
  consent_md TEXT NOT NULL DEFAULT '',
  instructions_md TEXT NOT NULL DEFAULT '',
  quiz JSONB,
  quotas JSONB NOT NULL DEFAULT jsonb_build_object(),
  currency VARCHAR(3) NOT NULL DEFAULT 'USD',
  base_cents INTEGER NOT NULL DEFAULT 0,
  fooling_bonus_cents INTEGER NOT NULL DEFAULT 0,
  agree_bonus_cents INTEGER NOT NULL DEFAULT 0,
  bonus_cap_cents INTEGER,
  completion_code VARCHAR(64) NOT NULL,
  failure_code VARCHAR(64) NOT NULL,
  completion_redirect TEXT,
  created_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS campaigns_task ON campaigns (task)",
    "CREATE INDEX IF NOT EXISTS campaigns_round ON campaigns (round)",
    """
CREATE TABLE IF NOT EXISTS campaign_workers (
  id SERIAL PRIMARY KEY,
  campaign INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  "user" INTEGER NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  external_key VARCHAR(64) NOT NULL,
  entry JSONB NOT NULL DEFAULT jsonb_build_object(),
  consented_at TIMESTAMPTZ,
  quiz_attempts INTEGER NOT NULL DEFAULT 0,
  quiz_passed BOOLEAN NOT NULL DEFAULT false,
  screened_out BOOLEAN NOT NULL DEFAULT false,
  finished_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT campaign_workers_one_per_worker UNIQUE (campaign, external_key)
)""",
    """
CREATE TABLE IF NOT EXISTS campaign_ledger_lines (
  id SERIAL PRIMARY KEY,
  campaign INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  key VARCHAR(80) NOT NULL,
  worker INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind VARCHAR(16) NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
  reason TEXT NOT NULL DEFAULT '',
  status VARCHAR(8) NOT NULL,
  exported_at TIMESTAMPTZ,
  CONSTRAINT campaign_ledger_lines_unique_key UNIQUE (campaign, key)
)""",
    "CREATE INDEX IF NOT EXISTS campaign_ledger_lines_worker ON campaign_ledger_lines (worker)",
    """
CREATE TABLE IF NOT EXISTS campaign_approved (
  id SERIAL PRIMARY KEY,
  campaign INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  worker INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  external_id VARCHAR(128) NOT NULL,
  assignment_id VARCHAR(64),
  submission_id VARCHAR(64),
  CONSTRAINT campaign_approved_unique_worker UNIQUE (campaign, worker)
)""",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="campaigns", description=DESCRIPTION)

    async def run():
        from server.campaigns.tables import Campaign

        for statement in STATEMENTS:
            await Campaign.raw(statement)

    async def run_backwards():
        from server.campaigns.tables import Campaign

        for table in ("campaign_approved", "campaign_ledger_lines", "campaign_workers", "campaigns"):
            await Campaign.raw(f"DROP TABLE IF EXISTS {table}")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
