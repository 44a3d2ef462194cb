"""Browsing what was collected (issue #18): indexes for owners' filters and full-text search, and each example's
history of owners' actions (read and written only through server/annotation/browse/queries.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-04T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "example_events, examples_round_id (for examples_round), examples_flag_queue(_by_id), examples_search"

CREATE = [
    """
CREATE TABLE IF NOT EXISTS example_events (
  id BIGSERIAL PRIMARY KEY,
  example INTEGER NOT NULL REFERENCES examples (id) ON DELETE CASCADE,
  actor INTEGER REFERENCES users (id) ON DELETE SET NULL,
  action VARCHAR(32) NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS example_events_example ON example_events (example, id)",
    # A round's examples newest first (the primary key alone makes an old round's first page scan the newer rounds).
    "CREATE INDEX IF NOT EXISTS examples_round_id ON examples (round, id)",
    # (round, id) serves every lookup by round: the index on round alone only tempted generic plans into reading a
    # whole round and sorting it.
    "DROP INDEX IF EXISTS examples_round",
    # The flag queue, newest first, of a round and of a task: a few rows in a thousand.
    "CREATE INDEX IF NOT EXISTS examples_flag_queue ON examples (round, id) WHERE (flagged OR status = 'flagged')",
    "CREATE INDEX IF NOT EXISTS examples_flag_queue_by_id ON examples (id) WHERE (flagged OR status = 'flagged')",
    """CREATE INDEX IF NOT EXISTS examples_search ON examples USING gin (jsonb_to_tsvector('simple', input, '["string"]'))""",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in CREATE:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("CREATE INDEX IF NOT EXISTS examples_round ON examples (round)")
        await Example.raw(
            "DROP INDEX IF EXISTS examples_search, examples_flag_queue, examples_flag_queue_by_id, examples_round_id"
        )
        await Example.raw("DROP TABLE IF EXISTS example_events")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
