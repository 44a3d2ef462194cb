"""Notifications (issue #18): each user's inbox and email preferences (written as SQL; declared in
server/notifications/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-13T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "notifications"

# (braces are Piccolo's placeholders, hence jsonb_build_object() for an empty object)
STATEMENTS = (
    """
CREATE TABLE IF NOT EXISTS notifications (
  id SERIAL PRIMARY KEY,
  recipient INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind VARCHAR(32) NOT NULL,
  subject VARCHAR(200) NOT NULL,
  data JSONB NOT NULL DEFAULT jsonb_build_object(),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  read_at TIMESTAMPTZ,
  email_state VARCHAR(8) NOT NULL DEFAULT 'none',
  email_attempts INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT notifications_once UNIQUE (recipient, kind, subject)
)""",
    "CREATE INDEX IF NOT EXISTS notifications_inbox ON notifications (recipient, id DESC)",
    "CREATE INDEX IF NOT EXISTS notifications_unread ON notifications (recipient) WHERE read_at IS NULL",
    "CREATE INDEX IF NOT EXISTS notifications_email_queued ON notifications (id) WHERE email_state = 'queued'",
    """
CREATE TABLE IF NOT EXISTS notification_preferences (
  id SERIAL PRIMARY KEY,
  "user" INTEGER NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  email_kinds VARCHAR(32)[] NOT NULL DEFAULT ARRAY[]::VARCHAR(32)[]
)""",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="notifications", description=DESCRIPTION)

    async def run():
        from server.notifications.tables import Notification

        for statement in STATEMENTS:
            await Notification.raw(statement)

    async def run_backwards():
        from server.notifications.tables import Notification

        for table in ("notification_preferences", "notifications"):
            await Notification.raw(f"DROP TABLE IF EXISTS {table}")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
