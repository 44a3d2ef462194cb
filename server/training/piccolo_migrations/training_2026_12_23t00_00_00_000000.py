"""training_runs.source_model and new_model: a run that retrains an uploaded classifier (a round's target) names the
submission it started from and the one it built (issue #35; written as SQL, declared in server/training/tables.py).
Runs of built-in models keep both null."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-23T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "training runs of uploaded classifiers"

ADD = (
    "ALTER TABLE training_runs ADD COLUMN IF NOT EXISTS source_model INTEGER REFERENCES models(id) ON DELETE SET NULL, "
    "ADD COLUMN IF NOT EXISTS new_model INTEGER REFERENCES models(id) ON DELETE SET NULL"
)
DROP = "ALTER TABLE training_runs DROP COLUMN IF EXISTS new_model, DROP COLUMN IF EXISTS source_model"


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
