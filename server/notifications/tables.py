"""The notifications domain's tables: each user's inbox and their email preferences."""

from piccolo.columns import JSONB, Array, ForeignKey, Integer, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.notifications.records import EmailState, NotificationKind


class Notification(Table, tablename="notifications"):
    recipient = ForeignKey(User)
    kind = Varchar(length=32, choices=NotificationKind)
    subject = Varchar(length=200)
    data = JSONB(default="{}")
    created_at = Timestamptz(default=TimestamptzNow())
    read_at = Timestamptz(null=True, default=None)
    email_state = Varchar(length=8, default=EmailState.NONE, choices=EmailState)
    email_attempts = Integer(default=0)


class NotificationPreference(Table, tablename="notification_preferences"):
    """The kinds a user also wants by email (only ever sent to a verified address)."""

    user = ForeignKey(User, unique=True)
    email_kinds = Array(base_column=Varchar(length=32))
