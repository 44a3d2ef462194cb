"""Webhooks: a rotated secret's predecessor keeps signing alongside the new one until its grace period ends."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-24T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "webhook secret rotation"

STATEMENTS = (
    "ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS previous_secret_salt VARCHAR(64)",
    "ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS previous_secret_expires_at TIMESTAMPTZ",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="webhooks", description=DESCRIPTION)

    async def run():
        from server.webhooks.tables import Webhook

        for statement in STATEMENTS:
            await Webhook.raw(statement)

    async def run_backwards():
        from server.webhooks.tables import Webhook

        for column in ("previous_secret_expires_at", "previous_secret_salt"):
            await Webhook.raw(f"ALTER TABLE webhooks DROP COLUMN IF EXISTS {column}")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
