"""Indexes for the list queries on a million examples, and the new counter filled from rows.

Each replaces an index that did not serve its query (tests/scale/test_query_plans.py checks every
list query's plan on 1M examples; bench/query_latency.py measures them):
- examples_user ("user") becomes ("user", id): "my examples, newest first" (the PWA's list, no round
  given) read the primary key backwards or sorted every example of a busy author (185 ms for one
  with 46k examples under a generic plan).
- examples_user_round_created ("user", round, created_at DESC) becomes ("user", round, id) INCLUDE
  (created_at): the same in one round (157 ms before), per-user recounts, and active days (still
  index-only through the INCLUDE).
- examples_round_status_fooled (round, status, fooled) WHERE NOT retracted, an index of every
  example, becomes two small partial indexes of the open ones (about 5% of the rows): by id for the
  examplesToValidate pages (227 ms before: the planner walked the primary key through older
  rounds) and for nextExamplesToValidate's window, and fooling-first for the live queue's first page.
Net: the same number of indexes written per createExample, two of them only for open examples.
"""

from piccolo.apps.migrations.auto.migration_manager import MigrationManager

ID = "2026-11-24T09:00:01:000000"
VERSION = "1.38.0"
DESCRIPTION = "list-query indexes; fooled_rejected from rows"

STATEMENTS_FORWARDS = [
    "DROP INDEX IF EXISTS examples_user",
    'CREATE INDEX examples_user ON examples ("user", id)',
    "DROP INDEX IF EXISTS examples_user_round_created",
    'CREATE INDEX IF NOT EXISTS examples_user_round_id ON examples ("user", round, id) INCLUDE (created_at)',
    "DROP INDEX IF EXISTS examples_round_status_fooled",
    "CREATE INDEX IF NOT EXISTS examples_open_by_round ON examples (round, id) WHERE status = 'open' AND NOT retracted",
    ("CREATE INDEX IF NOT EXISTS examples_open_queue ON examples (round, fooled DESC NULLS LAST, id) "
     "WHERE status = 'open' AND NOT retracted"),
    # The counters as validating.RECOUNT_USER defines them (this also repairs `fooled` of users who
    # retracted a fooling example before retraction decremented it).
    """UPDATE user_round_stats s SET fooled = c.fooled, fooled_rejected = c.fooled_rejected
       FROM (SELECT "user", round, count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled,
                    count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fooled_rejected
             FROM examples GROUP BY "user", round) c
       WHERE s."user" = c."user" AND s.round = c.round
         AND (s.fooled, s.fooled_rejected) IS DISTINCT FROM (c.fooled, c.fooled_rejected)""",
]
STATEMENTS_BACKWARDS = [
    "DROP INDEX IF EXISTS examples_open_queue",
    "DROP INDEX IF EXISTS examples_open_by_round",
    "CREATE INDEX IF NOT EXISTS examples_round_status_fooled ON examples (round, status, fooled) WHERE NOT retracted",
    "DROP INDEX IF EXISTS examples_user_round_id",
    'CREATE INDEX IF NOT EXISTS examples_user_round_created ON examples ("user", round, created_at DESC)',
    "DROP INDEX IF EXISTS examples_user",
    'CREATE INDEX examples_user ON examples ("user")',
]


async def forwards():
    manager = MigrationManager(migration_id=ID, app_name="annotation", description=DESCRIPTION)

    async def run():
        from server.annotation.tables import Example

        for statement in STATEMENTS_FORWARDS:
            await Example.raw(statement)

    async def run_backwards():
        from server.annotation.tables import Example

        for statement in STATEMENTS_BACKWARDS:
            await Example.raw(statement)

    manager.add_raw(run)
    manager.add_raw_backwards(run_backwards)
    return manager
