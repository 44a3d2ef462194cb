"""Contamination guard (docs/design.md §4.9): the contamination_reports table (one report per dataset and per
round, written as SQL; declared in server/evaluation/tables.py) and dataset_examples.collected_duplicate, the flag
on a dataset row that duplicates an example collected on the platform."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-26T16:16:06:000000"
VERSION = "1.38.0"
DESCRIPTION = "contamination reports"

# No braces below: Piccolo's raw SQL treats them as placeholders.
CREATE = """
CREATE TABLE IF NOT EXISTS contamination_reports (
  id SERIAL PRIMARY KEY,
  task INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  dataset INTEGER REFERENCES datasets (id) ON DELETE CASCADE,
  round INTEGER REFERENCES rounds (id) ON DELETE CASCADE,
  report JSONB NOT NULL,
  computed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT contamination_reports_one_subject CHECK ((dataset IS NULL) <> (round IS NULL))
)
"""
INDEXES = (
    "CREATE INDEX IF NOT EXISTS contamination_reports_task ON contamination_reports (task)",
    "CREATE UNIQUE INDEX IF NOT EXISTS contamination_reports_dataset ON contamination_reports (dataset) "
    "WHERE dataset IS NOT NULL",
    "CREATE UNIQUE INDEX IF NOT EXISTS contamination_reports_round ON contamination_reports (round) WHERE round IS NOT NULL",
)
FLAG = "ALTER TABLE dataset_examples ADD COLUMN IF NOT EXISTS collected_duplicate JSONB"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="evaluation", description=DESCRIPTION)

    async def run():
        from server.evaluation.tables import Dataset

        await Dataset.raw(CREATE)
        for statement in INDEXES:
            await Dataset.raw(statement)
        await Dataset.raw(FLAG)

    async def run_backwards():
        from server.evaluation.tables import Dataset

        await Dataset.raw("ALTER TABLE dataset_examples DROP COLUMN IF EXISTS collected_duplicate")
        await Dataset.raw("DROP TABLE IF EXISTS contamination_reports")

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
