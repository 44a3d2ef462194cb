"""The backup's statements. They run on one dedicated connection (the snapshot's), not through the pool: every read of
a backup must see the same transaction snapshot as pg_dump."""

from __future__ import annotations

# A REPEATABLE READ transaction's snapshot, exported for pg_dump --snapshot; timestamps read as text in UTC so that a
# table's content hash does not depend on the server's time zone.
BEGIN_SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
UTC = "SET LOCAL TimeZone = 'UTC'"
EXPORT_SNAPSHOT = "SELECT pg_export_snapshot()"
TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
SERVER_VERSION = "SHOW server_version"
MIGRATION_HEADS = "SELECT app_name, max(name) AS head FROM migration GROUP BY app_name ORDER BY app_name"
HAS_MIGRATION_TABLE = "SELECT to_regclass('public.migration') IS NOT NULL"
# Order-independent and streaming (no table is held in memory): the sum of the first 60 bits of each row's md5.
_TABLE_STATS = (
    "SELECT count(*) AS rows, "
    "coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint::numeric), 0)::text AS hash FROM {table} t"
)
DROP_PUBLIC = "DROP SCHEMA public CASCADE; CREATE SCHEMA public"


def table_stats(table: str) -> str:
    """The statement for one table; `table` comes from pg_tables (quoted here, never from input)."""
    return _TABLE_STATS.format(table='"' + table.replace('"', '""') + '"')
