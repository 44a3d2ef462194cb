"""Admins take submissions down (issue #18): models.taken_down_at and models.taken_down_reason (written as SQL;
declared in server/evaluation/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-22T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "models.taken_down_at, models.taken_down_reason"

STATEMENTS = (
    "ALTER TABLE models ADD COLUMN IF NOT EXISTS taken_down_at TIMESTAMPTZ",
    "ALTER TABLE models ADD COLUMN IF NOT EXISTS taken_down_reason VARCHAR(500) NOT NULL DEFAULT ''",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="evaluation", description=DESCRIPTION)

    async def run():
        from server.evaluation.tables import Model

        for statement in STATEMENTS:
            await Model.raw(statement)

    async def run_backwards():
        from server.evaluation.tables import Model

        await Model.raw("ALTER TABLE models DROP COLUMN IF EXISTS taken_down_reason, DROP COLUMN IF EXISTS taken_down_at")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
