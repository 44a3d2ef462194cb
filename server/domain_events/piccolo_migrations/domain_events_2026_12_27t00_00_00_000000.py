"""Domain events: the outbox table (server/domain_events/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-27T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "domain events outbox"

STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS domain_events (
        id SERIAL PRIMARY KEY,
        event_id UUID NOT NULL UNIQUE,
        kind VARCHAR(64) NOT NULL,
        payload JSONB NOT NULL,
        once_key TEXT UNIQUE,
        recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        delivered_at TIMESTAMPTZ
    )""",
    # The sweeper reads the undelivered ones, oldest first; the pruner the delivered ones by age.
    "CREATE INDEX IF NOT EXISTS domain_events_undelivered ON domain_events (recorded_at) WHERE delivered_at IS NULL",
    "CREATE INDEX IF NOT EXISTS domain_events_delivered_at ON domain_events (delivered_at)",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="domain_events", description=DESCRIPTION)

    async def run():
        from server.domain_events.tables import DomainEventRow

        for statement in STATEMENTS:
            await DomainEventRow.raw(statement)

    async def run_backwards():
        from server.domain_events.tables import DomainEventRow

        await DomainEventRow.raw("DROP TABLE IF EXISTS domain_events")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
