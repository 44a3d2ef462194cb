"""Admins disable accounts (issue #18): users.disabled_at and users.disabled_reason (written as SQL; declared in
server/accounts/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-22T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "users.disabled_at, users.disabled_reason"

STATEMENTS = (
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS disabled_at TIMESTAMPTZ",
    "ALTER TABLE users ADD COLUMN IF NOT EXISTS disabled_reason VARCHAR(500) NOT NULL DEFAULT ''",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="accounts", description=DESCRIPTION)

    async def run():
        from server.accounts.tables import User

        for statement in STATEMENTS:
            await User.raw(statement)

    async def run_backwards():
        from server.accounts.tables import User

        await User.raw("ALTER TABLE users DROP COLUMN IF EXISTS disabled_reason, DROP COLUMN IF EXISTS disabled_at")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
