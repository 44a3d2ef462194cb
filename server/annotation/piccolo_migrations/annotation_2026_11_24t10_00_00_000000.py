"""round_agreement: each round's Krippendorff's alpha kept as its coincidence matrix (written as SQL; read and
written only through server/annotation/stats.py), filled from the votes already aggregated."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-24T10:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "round agreement sums"

CREATE = """
CREATE TABLE IF NOT EXISTS round_agreement (
  round INTEGER PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
  units INTEGER NOT NULL DEFAULT 0,
  coincidences DOUBLE PRECISION[] NOT NULL
)
"""
# stats.AGREEMENT_RECOUNT as of this migration, over every round.
FILL = """
INSERT INTO round_agreement (round, units, coincidences)
SELECT round, count(*),
  ARRAY[sum((c * c - c)::float8 / (m - 1)), sum((c * i)::float8 / (m - 1)), sum((c * f)::float8 / (m - 1)),
        sum((i * c)::float8 / (m - 1)), sum((i * i - i)::float8 / (m - 1)), sum((i * f)::float8 / (m - 1)),
        sum((f * c)::float8 / (m - 1)), sum((f * i)::float8 / (m - 1)), sum((f * f - f)::float8 / (m - 1))]
FROM (SELECT e.round, count(*) FILTER (WHERE v.label = 'correct') AS c, count(*) FILTER (WHERE v.label = 'incorrect') AS i,
             count(*) FILTER (WHERE v.label = 'flagged') AS f, count(*) AS m
      FROM validations v JOIN examples e ON e.id = v.example
      WHERE v.mode = 'user' AND v.aggregated GROUP BY e.round, v.example) units
WHERE m >= 2
GROUP BY round
ON CONFLICT (round) DO UPDATE SET units = EXCLUDED.units, coincidences = EXCLUDED.coincidences
"""


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        await Example.raw(CREATE)
        await Example.raw(FILL)

    async def run_backwards():
        from server.annotation.tables import Example

        await Example.raw("DROP TABLE IF EXISTS round_agreement")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
