"""training_runs.trained_on: what a run's build trained on (count per label, digest, share), as the training
code counted it (written as SQL; declared in server/training/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-26T12:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "training runs record what they trained on"

# (braces are Piccolo's placeholders, hence jsonb_build_object() for an empty object)
ADD = "ALTER TABLE training_runs ADD COLUMN IF NOT EXISTS trained_on JSONB NOT NULL DEFAULT jsonb_build_object()"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="training", description=DESCRIPTION)

    async def run():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(ADD)

    async def run_backwards():
        from server.training.tables import TrainingRun

        await TrainingRun.raw("ALTER TABLE training_runs DROP COLUMN IF EXISTS trained_on")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
