"""Unattended adversary runs (issue #31 point 5): the runs, at most one queued or running per task, and an index that
finds a run's examples (examples.assisted_by {kind: machine, run})."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2027-01-10T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "adversary_runs"

CREATE = [
    """CREATE TABLE IF NOT EXISTS adversary_runs (
      id SERIAL PRIMARY KEY,
      client_id UUID NOT NULL UNIQUE,
      round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
      task INTEGER NOT NULL,
      started_by INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      requested INTEGER NOT NULL,
      status VARCHAR(16) NOT NULL DEFAULT 'queued',
      generator VARCHAR(200) NOT NULL DEFAULT '',
      error TEXT NOT NULL DEFAULT '',
      refused INTEGER NOT NULL DEFAULT 0,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      started_at TIMESTAMPTZ,
      finished_at TIMESTAMPTZ
    )""",
    "CREATE INDEX IF NOT EXISTS adversary_runs_round ON adversary_runs (round)",
    "CREATE INDEX IF NOT EXISTS adversary_runs_task ON adversary_runs (task)",
    "CREATE INDEX IF NOT EXISTS adversary_runs_started_by ON adversary_runs (started_by)",
    """CREATE UNIQUE INDEX IF NOT EXISTS adversary_runs_one_active ON adversary_runs (task)
      WHERE status IN ('queued', 'running')""",
    """CREATE INDEX IF NOT EXISTS examples_machine_run ON examples (((assisted_by ->> 'run')::int))
      WHERE assisted_by ->> 'kind' = 'machine'""",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP INDEX IF EXISTS examples_machine_run")
        await Example.raw("DROP TABLE IF EXISTS adversary_runs")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
