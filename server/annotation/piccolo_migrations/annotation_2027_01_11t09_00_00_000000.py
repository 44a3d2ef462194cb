"""round_agreement in shards (issue #32): every aggregation of a round added to its one row, so they queued on it. The
sums now live in a few rows per round (the aggregating connection's shard, validation/queries.AGREEMENT_ADD); reads
add them up through the view round_agreement_totals. The existing sums become shard 0."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2027-01-11T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "round agreement sums in shards"

FORWARDS = [
    "ALTER TABLE round_agreement ADD COLUMN IF NOT EXISTS shard SMALLINT NOT NULL DEFAULT 0",
    "ALTER TABLE round_agreement DROP CONSTRAINT IF EXISTS round_agreement_pkey",
    "ALTER TABLE round_agreement ADD PRIMARY KEY (round, shard)",
    """
CREATE OR REPLACE VIEW round_agreement_totals AS
SELECT a.round, sum(a.units)::int AS units,
  (SELECT array_agg(t.total ORDER BY t.n) FROM (
     SELECT u.n, sum(u.x) AS total FROM round_agreement b CROSS JOIN LATERAL unnest(b.coincidences) WITH ORDINALITY u(x, n)
     WHERE b.round = a.round GROUP BY u.n) t) AS coincidences
FROM round_agreement a
GROUP BY a.round""",
]

BACKWARDS = [
    "DROP VIEW IF EXISTS round_agreement_totals",
    """CREATE TEMPORARY TABLE round_agreement_summed AS
       SELECT round, sum(units)::int AS units,
         (SELECT array_agg(t.total ORDER BY t.n) FROM (
            SELECT u.n, sum(u.x) AS total FROM round_agreement b CROSS JOIN LATERAL unnest(b.coincidences) WITH ORDINALITY u(x, n)
            WHERE b.round = a.round GROUP BY u.n) t) AS coincidences
       FROM round_agreement a GROUP BY round""",
    "DELETE FROM round_agreement",
    "ALTER TABLE round_agreement DROP CONSTRAINT IF EXISTS round_agreement_pkey",
    "ALTER TABLE round_agreement DROP COLUMN IF EXISTS shard",
    "ALTER TABLE round_agreement ADD PRIMARY KEY (round)",
    "INSERT INTO round_agreement (round, units, coincidences) SELECT round, units, coincidences FROM round_agreement_summed",
    "DROP TABLE round_agreement_summed",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in FORWARDS:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        for statement in BACKWARDS:
            await Example.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
