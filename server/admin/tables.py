"""The admin domain's table: the audit log of every admin action."""

from piccolo.columns import ForeignKey, Integer, Timestamptz, Varchar
from piccolo.columns.base import OnDelete
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.admin.records import AuditAction, AuditTarget


class AdminAudit(Table, tablename="admin_audit"):
    """One row per admin action, written in the action's own transaction (server/admin/audit.py)."""

    actor = ForeignKey(User, null=True, on_delete=OnDelete.set_null)
    actor_username = Varchar(length=64, default="")  # kept if the account goes
    action = Varchar(length=32, choices=AuditAction)
    target_type = Varchar(length=16, choices=AuditTarget)
    target_id = Integer()
    target_label = Varchar(length=200, default="")
    reason = Varchar(length=1000, default="")
    created_at = Timestamptz(default=TimestamptzNow())
