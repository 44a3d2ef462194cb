"""The webhooks domain's tables: the hooks, their deliveries (one per event and hook) and each delivery's attempts."""

from piccolo.columns import UUID, Array, Boolean, DoublePrecision, ForeignKey, Integer, Text, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.tasks.tables import Task
from server.webhooks.records import DeliveryStatus


class Webhook(Table, tablename="webhooks"):
    task = ForeignKey(Task, index=True)
    url = Text()
    events = Array(base_column=Varchar(length=32))
    description = Text(default="")
    secret_salt = Varchar(length=64, secret=True)
    # After a rotation the previous secret signs too (a second v1= entry) until it expires, so receivers can switch.
    previous_secret_salt = Varchar(length=64, null=True, default=None, secret=True)
    previous_secret_expires_at = Timestamptz(null=True, default=None)
    enabled = Boolean(default=True)
    consecutive_failures = Integer(default=0)
    disabled_reason = Text(null=True, default=None)
    disabled_at = Timestamptz(null=True, default=None)
    created_by = ForeignKey(User)
    created_at = Timestamptz(default=TimestamptzNow())


class WebhookDelivery(Table, tablename="webhook_deliveries"):
    webhook = ForeignKey(Webhook)
    event_id = UUID()
    event_type = Varchar(length=32)
    payload = Text()
    status = Varchar(length=10, default=DeliveryStatus.PENDING, choices=DeliveryStatus)
    attempts = Integer(default=0)
    next_attempt_at = Timestamptz(null=True, default=None)
    last_status_code = Integer(null=True, default=None)
    last_error = Text(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())
    delivered_at = Timestamptz(null=True, default=None)


class WebhookAttempt(Table, tablename="webhook_attempts"):
    delivery = ForeignKey(WebhookDelivery)
    number = Integer()
    status_code = Integer(null=True, default=None)
    error = Text(null=True, default=None)
    duration_ms = DoublePrecision(default=0.0)
    at = Timestamptz(default=TimestamptzNow())
