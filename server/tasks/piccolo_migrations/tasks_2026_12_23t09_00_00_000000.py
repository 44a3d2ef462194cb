"""Target models an admin shares with every task owner (issue #29): a built-in model belongs to its own task's rounds
until an admin shares it; then any owner may open a round with it (only an admin or its own task's owners retrain it)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-23T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "shared target models"

FORWARDS = [
    """
CREATE TABLE IF NOT EXISTS shared_target_models (
  name VARCHAR(200) PRIMARY KEY,
  shared_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  shared_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
]

BACKWARDS = ["DROP TABLE IF EXISTS shared_target_models"]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="tasks", description=DESCRIPTION)

    async def run():
        from server.tasks.tables import Task

        for statement in FORWARDS:
            await Task.raw(statement)

    async def run_backwards():
        from server.tasks.tables import Task

        for statement in BACKWARDS:
            await Task.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
