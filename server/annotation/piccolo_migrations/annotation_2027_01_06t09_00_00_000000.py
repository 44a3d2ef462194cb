"""Check battles (issue #31, gold): the position of a battle's check side, and owners' reinstatements of battle voters
the pause rule stopped."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2027-01-06T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "battles.check_position, battle_voter_reinstatements"

CREATE = [
    "ALTER TABLE battles ADD COLUMN IF NOT EXISTS check_position INTEGER",
    """CREATE TABLE IF NOT EXISTS battle_voter_reinstatements (
      id SERIAL PRIMARY KEY,
      task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      reinstated_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
      reinstated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      UNIQUE (task, "user")
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

        await Example.raw("DROP TABLE IF EXISTS battle_voter_reinstatements")
        await Example.raw("ALTER TABLE battles DROP COLUMN IF EXISTS check_position")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
