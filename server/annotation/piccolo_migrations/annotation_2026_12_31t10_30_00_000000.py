"""Battles (issue #31): each side's rating on the task's form, stored with the vote, and the side the author goes on
talking to after it."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-31T10:30:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "battle_sides.rating, battle_continuations"

CREATE = [
    "ALTER TABLE battle_sides ADD COLUMN IF NOT EXISTS rating DOUBLE PRECISION",
    """CREATE TABLE IF NOT EXISTS battle_continuations (
      id SERIAL PRIMARY KEY,
      battle INTEGER NOT NULL UNIQUE REFERENCES battles (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      client_id UUID NOT NULL UNIQUE,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS battle_continuations")
        await Example.raw("ALTER TABLE battle_sides DROP COLUMN IF EXISTS rating")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
