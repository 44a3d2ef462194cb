"""Annotation form components (issue #18): the author's follow-up answers once per example (their client UUID), and
the validator fields answered with each vote."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-20T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "examples.follow_up_client_id, validations.fields"

CREATE = [
    "ALTER TABLE examples ADD COLUMN IF NOT EXISTS follow_up_client_id UUID",
    "ALTER TABLE validations ADD COLUMN IF NOT EXISTS fields JSONB NOT NULL DEFAULT jsonb_build_object()",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("ALTER TABLE validations DROP COLUMN IF EXISTS fields")
        await Example.raw("ALTER TABLE examples DROP COLUMN IF EXISTS follow_up_client_id")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
