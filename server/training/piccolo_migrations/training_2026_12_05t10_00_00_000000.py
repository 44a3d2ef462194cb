"""training_runs: the retraining gate (its decision, tolerance, minimum, an owner's override), cancellation and the
run's cost (written as SQL; declared in server/training/tables.py). The status column already fits rejected and
cancelled (varchar(16))."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-05T10:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "training runs pass a gate, can be cancelled and report their cost"

# (braces are Piccolo's placeholders, hence jsonb_build_object() for an empty object)
ADD = """
ALTER TABLE training_runs
  ADD COLUMN IF NOT EXISTS gate JSONB NOT NULL DEFAULT jsonb_build_object(),
  ADD COLUMN IF NOT EXISTS scoring_tolerance DOUBLE PRECISION NOT NULL DEFAULT 0.01,
  ADD COLUMN IF NOT EXISTS min_held_out INTEGER NOT NULL DEFAULT 30,
  ADD COLUMN IF NOT EXISTS cancel_requested BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN IF NOT EXISTS overridden_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN IF NOT EXISTS override_reason VARCHAR(500) NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS overridden_at TIMESTAMPTZ,
  ADD COLUMN IF NOT EXISTS wall_seconds DOUBLE PRECISION NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS cpu_seconds DOUBLE PRECISION NOT NULL DEFAULT 0
"""
DROP = """
ALTER TABLE training_runs
  DROP COLUMN IF EXISTS gate, DROP COLUMN IF EXISTS scoring_tolerance, DROP COLUMN IF EXISTS min_held_out,
  DROP COLUMN IF EXISTS cancel_requested, DROP COLUMN IF EXISTS overridden_by, DROP COLUMN IF EXISTS override_reason,
  DROP COLUMN IF EXISTS overridden_at, DROP COLUMN IF EXISTS wall_seconds, DROP COLUMN IF EXISTS cpu_seconds
"""


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="training", description=DESCRIPTION)

    async def run():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(ADD)

    async def run_backwards():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(DROP)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
