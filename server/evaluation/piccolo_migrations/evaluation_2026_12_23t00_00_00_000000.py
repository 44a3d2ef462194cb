"""models.retrained_from: the submission a retraining run built this one from (issue #35; written as SQL, declared in
server/evaluation/tables.py). A foreign key that lets go (SET NULL) when the earlier version is deleted."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-23T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "models.retrained_from"

ADD = "ALTER TABLE models ADD COLUMN IF NOT EXISTS retrained_from INTEGER REFERENCES models(id) ON DELETE SET NULL"
DROP = "ALTER TABLE models DROP COLUMN IF EXISTS retrained_from"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="evaluation", description=DESCRIPTION)

    async def run():
        from server.evaluation.tables import Model

        await Model.raw(ADD)

    async def run_backwards():
        from server.evaluation.tables import Model

        await Model.raw(DROP)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
