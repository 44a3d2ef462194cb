"""The outbox of domain events: each is written in the transaction that decided it, so none is lost when a process
dies between the commit and its listeners (the sweeper delivers what was never marked delivered)."""

from piccolo.columns import UUID, Text, Timestamptz, Varchar
from piccolo.columns.column_types import JSONB
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table


class DomainEventRow(Table, tablename="domain_events"):
    event_id = UUID(unique=True)
    kind = Varchar(length=64)
    payload = JSONB()
    # Events that happen once per key (a badge earned): a second record with the same key writes nothing.
    once_key = Text(null=True, default=None, unique=True)
    recorded_at = Timestamptz(default=TimestamptzNow())
    delivered_at = Timestamptz(null=True, default=None, index=True)
