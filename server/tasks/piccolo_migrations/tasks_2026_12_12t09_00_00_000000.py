"""A task's whole life (issue #18): its status (proposal, rejected, public, hidden, archived) with the reviewer's
note, markdown instructions, and config versions: every config a task has had is kept in task_config_versions and
each round records the version it ran with (examples are judged and exported with it). Existing tasks stay PUBLIC
and their current config becomes version 1 of every existing round."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-12T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "task lifecycle: status, instructions, config versions"

FORWARDS = [
    "ALTER TABLE tasks ADD COLUMN IF NOT EXISTS status VARCHAR(16) NOT NULL DEFAULT 'PUBLIC'",
    "ALTER TABLE tasks ADD COLUMN IF NOT EXISTS review_note TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE tasks ADD COLUMN IF NOT EXISTS instructions TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE tasks ADD COLUMN IF NOT EXISTS config_version INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE rounds ADD COLUMN IF NOT EXISTS config_version INTEGER NOT NULL DEFAULT 1",
    """
CREATE TABLE IF NOT EXISTS task_config_versions (
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  config JSONB NOT NULL,
  created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (task, version)
)""",
    """
INSERT INTO task_config_versions (task, version, config, created_by, created_at)
SELECT id, 1, config, NULL, created_at FROM tasks
ON CONFLICT (task, version) DO NOTHING""",
]

BACKWARDS = [
    "DROP TABLE IF EXISTS task_config_versions",
    "ALTER TABLE rounds DROP COLUMN IF EXISTS config_version",
    "ALTER TABLE tasks DROP COLUMN IF EXISTS config_version",
    "ALTER TABLE tasks DROP COLUMN IF EXISTS instructions",
    "ALTER TABLE tasks DROP COLUMN IF EXISTS review_note",
    "ALTER TABLE tasks DROP COLUMN IF EXISTS status",
]


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
