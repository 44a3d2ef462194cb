"""Composite and partial indexes for the annotation hot paths (Piccolo can't declare these)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-22T03:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "hot-path indexes"

STATEMENTS_FORWARDS = [
    # Validation queue: open examples of a round, fooling first.
    "CREATE INDEX IF NOT EXISTS examples_round_status_fooled ON examples (round, status, fooled) WHERE NOT retracted",
    # "My examples" and per-user counters.
    "CREATE INDEX IF NOT EXISTS examples_user_round_created ON examples (\"user\", round, created_at DESC)",
    # Pending re-check sweeper.
    "CREATE INDEX IF NOT EXISTS examples_pending ON examples (next_check_at) WHERE status = 'pending'",
]
STATEMENTS_BACKWARDS = [
    "DROP INDEX IF EXISTS examples_round_status_fooled",
    "DROP INDEX IF EXISTS examples_user_round_created",
    "DROP INDEX IF EXISTS examples_pending",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in STATEMENTS_FORWARDS:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        for statement in STATEMENTS_BACKWARDS:
            await Example.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
