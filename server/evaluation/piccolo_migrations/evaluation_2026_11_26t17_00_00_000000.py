"""Models "evaluated" on 0 datasets (no score at all: their task had no scoring dataset) become `not_ranked`, the
status such an evaluation ends in from now on ("Not ranked: no scoring dataset"). A worker cron evaluates them
once their task has a scoring dataset (server/evaluation/pipeline.py `rank_not_ranked`)."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-26T17:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "models evaluated on no dataset are not ranked"

# No braces below: Piccolo's raw SQL treats them as placeholders.
NOT_RANKED = """
UPDATE models m
   SET status = 'not_ranked',
       status_log = m.status_log || jsonb_build_array(jsonb_build_object(
           'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
           'status', 'not_ranked', 'message', 'Not ranked: no scoring dataset'))
 WHERE m.status = 'evaluated' AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.model = m.id)
"""
BACK = "UPDATE models SET status = 'evaluated' WHERE status = 'not_ranked'"


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="evaluation", description=DESCRIPTION)

    async def run():
        from server.evaluation.tables import Model

        await Model.raw(NOT_RANKED)

    async def run_backwards():
        from server.evaluation.tables import Model

        await Model.raw(BACK)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
