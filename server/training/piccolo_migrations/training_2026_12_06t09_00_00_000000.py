"""training_runs.include_agreed: whether a run trains on (and judges with) the non-fooling examples the target agreed
with that the task does not send to validators (status closed), besides the validated ones (written as SQL; declared
in server/training/tables.py). Earlier runs read validated examples only, hence false for them."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-06T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "training runs may use the examples the target agreed with"

# Existing rows get false (added with that default), new ones true.
ADD = "ALTER TABLE training_runs ADD COLUMN IF NOT EXISTS include_agreed BOOLEAN NOT NULL DEFAULT false"
SET_DEFAULT = "ALTER TABLE training_runs ALTER COLUMN include_agreed SET DEFAULT true"
DROP = "ALTER TABLE training_runs DROP COLUMN IF EXISTS include_agreed"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="training", description=DESCRIPTION)

    async def run():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(ADD)
        await TrainingRun.raw(SET_DEFAULT)

    async def run_backwards():
        from server.training.tables import TrainingRun

        await TrainingRun.raw(DROP)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
