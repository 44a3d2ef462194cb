"""A round's counters leave its row (issue #32): every createExample, retraction and aggregation updated the one row of
its round, so they queued on it. Writers now add differences to one of a few rows per round (round_counts: the shard is
the writer's connection's) and reads sum them (server/annotation/round_counts.py). The totals so far move to shard 0.
`round_totals` is the sums as a view, for operators and checks (the API reads them in its round queries)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-24T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "round counters in shards"

FORWARDS = [
    """
CREATE TABLE IF NOT EXISTS round_counts (
  round INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
  shard SMALLINT NOT NULL,
  collected INTEGER NOT NULL DEFAULT 0,
  fooled INTEGER NOT NULL DEFAULT 0,
  validated INTEGER NOT NULL DEFAULT 0,
  validated_fooled INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (round, shard)
)""",
    """INSERT INTO round_counts (round, shard, collected, fooled, validated, validated_fooled)
       SELECT id, 0, total_collected, total_fooled, total_validated, total_validated_fooled FROM rounds
       ON CONFLICT (round, shard) DO NOTHING""",
    "ALTER TABLE rounds DROP COLUMN IF EXISTS total_collected",
    "ALTER TABLE rounds DROP COLUMN IF EXISTS total_fooled",
    "ALTER TABLE rounds DROP COLUMN IF EXISTS total_validated",
    "ALTER TABLE rounds DROP COLUMN IF EXISTS total_validated_fooled",
    """
CREATE OR REPLACE VIEW round_totals AS
SELECT r.id AS round, coalesce(sum(c.collected), 0)::int AS total_collected, coalesce(sum(c.fooled), 0)::int AS total_fooled,
       coalesce(sum(c.validated), 0)::int AS total_validated,
       coalesce(sum(c.validated_fooled), 0)::int AS total_validated_fooled
  FROM rounds r LEFT JOIN round_counts c ON c.round = r.id
 GROUP BY r.id""",
]

BACKWARDS = [
    "DROP VIEW IF EXISTS round_totals",
    "ALTER TABLE rounds ADD COLUMN IF NOT EXISTS total_collected INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE rounds ADD COLUMN IF NOT EXISTS total_fooled INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE rounds ADD COLUMN IF NOT EXISTS total_validated INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE rounds ADD COLUMN IF NOT EXISTS total_validated_fooled INTEGER NOT NULL DEFAULT 0",
    """UPDATE rounds r SET total_collected = s.collected, total_fooled = s.fooled, total_validated = s.validated,
         total_validated_fooled = s.validated_fooled
       FROM (SELECT round, sum(collected) AS collected, sum(fooled) AS fooled, sum(validated) AS validated,
                    sum(validated_fooled) AS validated_fooled FROM round_counts GROUP BY round) s
       WHERE s.round = r.id""",
    "DROP TABLE IF EXISTS round_counts",
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="tasks", description=DESCRIPTION)

    async def run():
        from server.tasks.tables import Task

        for statement in FORWARDS:
            await Task.raw(statement)

    async def run_backwards():
        from server.tasks.tables import Task

        for statement in BACKWARDS:
            await Task.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
