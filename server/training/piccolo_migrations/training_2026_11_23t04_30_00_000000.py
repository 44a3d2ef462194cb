"""The training_runs table (written as SQL: one table, declared in server/training/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-23T04:30:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "training runs"

CREATE = """
CREATE TABLE IF NOT EXISTS training_runs (
  id SERIAL PRIMARY KEY,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  requested_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  from_rounds JSONB NOT NULL DEFAULT '[]',
  base_model VARCHAR(500) NOT NULL DEFAULT '',
  profile VARCHAR(8) NOT NULL DEFAULT 'full',
  status VARCHAR(16) NOT NULL DEFAULT 'queued',
  progress DOUBLE PRECISION NOT NULL DEFAULT 0,
  status_log JSONB NOT NULL DEFAULT '[]',
  model_name VARCHAR(200) NOT NULL DEFAULT '',
  model_version VARCHAR(32) NOT NULL DEFAULT '',
  n_validated INTEGER NOT NULL DEFAULT 0,
  metrics JSONB NOT NULL DEFAULT jsonb_build_object(),  -- (braces are Piccolo's placeholders)
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="training", description=DESCRIPTION)

    async def run():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(CREATE)
        await TrainingRun.raw("CREATE INDEX IF NOT EXISTS training_runs_task ON training_runs (task)")

    async def run_backwards():
        from server.training.tables import TrainingRun

        await TrainingRun.raw("DROP TABLE IF EXISTS training_runs")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
