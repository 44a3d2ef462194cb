"""Reinstating paused validators (issue #17): an owner's reinstatement of a validator in a task; only gold answers
given after the latest one count toward the pause rule (read and written only through
server/annotation/quality/queries.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-03T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "validator_reinstatements"

CREATE = [
    """
CREATE TABLE IF NOT EXISTS validator_reinstatements (
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  "user" INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reinstated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  reinstated_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (task, "user")
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

        await Example.raw("DROP TABLE IF EXISTS validator_reinstatements")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
