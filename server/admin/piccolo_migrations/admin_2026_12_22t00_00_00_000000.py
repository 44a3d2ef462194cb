"""The admins' audit log (issue #18): one row per admin action, written in the action's transaction (written as SQL;
declared in server/admin/tables.py)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-22T00:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "admin_audit"

STATEMENTS = (
    """
CREATE TABLE IF NOT EXISTS admin_audit (
  id SERIAL PRIMARY KEY,
  actor INTEGER REFERENCES users (id) ON DELETE SET NULL,
  actor_username VARCHAR(64) NOT NULL DEFAULT '',
  action VARCHAR(32) NOT NULL,
  target_type VARCHAR(16) NOT NULL,
  target_id INTEGER NOT NULL,
  target_label VARCHAR(200) NOT NULL DEFAULT '',
  reason VARCHAR(1000) NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
    "CREATE INDEX IF NOT EXISTS admin_audit_action ON admin_audit (action, id)",
    "CREATE INDEX IF NOT EXISTS admin_audit_actor ON admin_audit (actor, id)",
)


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="admin", description=DESCRIPTION)

    async def run():
        from server.admin.tables import AdminAudit

        for statement in STATEMENTS:
            await AdminAudit.raw(statement)

    async def run_backwards():
        from server.admin.tables import AdminAudit

        await AdminAudit.raw("DROP TABLE IF EXISTS admin_audit")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
