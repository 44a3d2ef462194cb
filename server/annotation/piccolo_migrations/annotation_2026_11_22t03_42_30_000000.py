"""Partial index for the re-aggregation sweeper (raw SQL runs before column changes, hence its own file)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-22T03:42:30:000000"
VERSION = "1.38.0"
DESCRIPTION = "index of unaggregated votes"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Validation

        await Validation.raw("CREATE INDEX IF NOT EXISTS validations_unaggregated ON validations (example) WHERE NOT aggregated")

    async def run_backwards():
        from server.annotation.tables import Validation

        await Validation.raw("DROP INDEX IF EXISTS validations_unaggregated")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
