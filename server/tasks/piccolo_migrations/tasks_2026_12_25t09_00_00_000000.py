"""A context pick in one statement (issue #32): nextContext serialized a round's picks with an advisory lock held over
four round trips (BEGIN, the lock, the pick, COMMIT), so under load each pick held the round's lock while its API
process was busy elsewhere, and the picks of a round queued behind each other (32 ms of waiting a pick at 200 users).
The function takes the lock, then picks with a snapshot taken after it (a VOLATILE SQL function's statements each take
a fresh one), so a pick still sees every earlier pick as served; called alone, its implicit transaction releases the
lock as soon as the statement ends."""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-12-25T09:00:00:000000"
VERSION = "1.38.0"
DESCRIPTION = "context picks in one statement"

# 787479 = 0xC0417, the advisory lock namespace of context picks (one lock per round: the second key).
FORWARDS = [
    """
CREATE OR REPLACE FUNCTION pick_served_context(p_round integer, p_least_fooled boolean) RETURNS SETOF contexts
LANGUAGE sql VOLATILE AS $$
SELECT pg_advisory_xact_lock(787479, p_round);
WITH candidates AS (
  (SELECT id FROM contexts WHERE round = p_round AND NOT p_least_fooled
    ORDER BY total_used, last_used_at NULLS FIRST, id LIMIT 8)
  UNION ALL
  (SELECT id FROM contexts WHERE round = p_round AND p_least_fooled
    ORDER BY total_fooled, total_used, last_used_at NULLS FIRST, id LIMIT 8)
), pick AS (SELECT id FROM candidates ORDER BY random() LIMIT 1)
UPDATE contexts SET last_used_at = now() WHERE id = (SELECT id FROM pick) RETURNING *;
$$""",
]

BACKWARDS = ["DROP FUNCTION IF EXISTS pick_served_context(integer, boolean)"]


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
