"""Index for least-used context sampling (Piccolo can't declare composite indexes)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-22T03:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "hot-path indexes"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="tasks", description=DESCRIPTION)

    async def run():
        from server.tasks.tables import Context

        await Context.raw("CREATE INDEX IF NOT EXISTS contexts_round_used ON contexts (round, total_used, id)")

    async def run_backwards():
        from server.tasks.tables import Context

        await Context.raw("DROP INDEX IF EXISTS contexts_round_used")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
