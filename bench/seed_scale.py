"""A production-sized database in seconds: 1M examples, ~1M votes, 10k users, 4 rounds, 300 models.

Used by tests/scale/test_query_plans.py and bench/query_latency.py. Everything is written with
INSERT ... SELECT generate_series in a handful of statements (setseed makes it repeatable); the
counters (rounds, contexts, user_round_stats) are then recomputed from the rows with the same
definitions the product uses, so the API reads a consistent database.

Shape (realistic skew, since a uniform spread hides the slow cases):
- one task with 4 rounds; 40/30/20/10% of the examples, oldest round first; round 4 is current;
- 5,000 contexts per round;
- authors drawn as floor(users · u³): the busiest user wrote ~4.6% of everything (~46k examples),
  the median user a few dozen;
- 30% of examples fooled the model; decided rounds have 8% of their fooled examples still open,
  the current round 60%; 1% retracted; none pending (the model judged them all); non-fooling examples
  are closed (the task does not validate them);
- every decided fooled example has 3 matching votes (half of them a 4th, dissenting one), open ones
  0–2 (≈1M validations in all);
- 300 models (200 evaluated, 150 of those published), 3 scoring datasets + 1 standard, one score
  per evaluated model and scoring dataset.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime

import asyncpg

TASK_CODE = "scale_sentiment"
ROUND_SHARES = (0.4, 0.3, 0.2, 0.1)


@dataclass
class Seeded:
    task_id: int
    task_code: str
    round_ids: list[int]  # by number, round 1 first
    user_ids: list[int]  # user_ids[0] is the busiest author
    examples: int
    validations: int
    seconds: float
    steps: dict[str, float]  # seconds per step


SQL_USERS = """
INSERT INTO users (username, email, password_hash, is_admin, created_at)
SELECT 'scale_user_' || g, 'scale_user_' || g || '@example.org', '', false, now() - interval '400 days'
FROM generate_series(1, $1) g
"""
SQL_ROUND = """
INSERT INTO rounds (task, number, target_models, start_at, end_at)
VALUES ($1, $2, '[{"name": "sentiment_minilm", "version": ""}]', $3, $4) RETURNING id
"""
SQL_CONTEXTS = """
INSERT INTO contexts (round, fields, tag, created_at)
SELECT $1, jsonb_build_object('context', 'Write a review of place number ' || g || '.'),
       CASE WHEN g % 10 = 0 THEN 'hard' END, $2
FROM generate_series(1, $3) g
"""
# One row per example. $1 rounds[], $2 first context id per round[], $3 contexts per round, $4 first
# user id, $5 users, $6 examples, $7 round boundaries[], $8 sentences[], $9 labels[].
SQL_EXAMPLES = """
INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version, fooled,
  status, retracted, flagged, flag_reason, explanation, time_spent_ms, pending_reason, check_attempts, created_at)
SELECT gen_random_uuid(), ($1::int[])[k], ($2::int[])[k] + floor(random() * $3)::int,
  $4 + floor($5 * power(random(), 3))::int,
  jsonb_build_object('statement', ($8::text[])[1 + g % cardinality($8::text[])], 'label', ($9::text[])[1 + g % 3]),
  jsonb_build_object('label', ($9::text[])[1 + (g + CASE WHEN fooled THEN 1 ELSE 0 END) % 3],
                     'probs', jsonb_build_object('negative', 0.2, 'positive', 0.7, 'neutral', 0.1)),
  'sentiment_minilm', '1',
  fooled,
  CASE WHEN NOT fooled THEN 'closed'
       WHEN u < (CASE WHEN k = 4 THEN 0.6 ELSE 0.08 END) THEN 'open'
       WHEN u < (CASE WHEN k = 4 THEN 0.9 ELSE 0.78 END) THEN 'validated'
       WHEN u < 0.98 THEN 'rejected' ELSE 'flagged' END,
  random() < 0.01, g % 500 = 0, '', '', 5000 + random() * 60000,
  '', 0,
  timestamptz '2025-01-01' + (g::float8 / $6) * interval '365 days'
FROM (
  SELECT g, k, random() < 0.3 AS fooled, random() AS u
  FROM (SELECT g, width_bucket(g::float8, $7::float8[]) + 1 AS k FROM generate_series(1, $6) g) numbered
) rows
ORDER BY g
"""
# Decided examples get 3 matching votes (half a 4th dissenting one), open ones 0–2; voters never vote on their own example.
SQL_VALIDATIONS = """
INSERT INTO validations (example, "user", label, mode, note, aggregated, created_at)
SELECT e.id, $1 + (e."user" - $1 + 1 + j * ($2 / 3) + e.id % ($2 / 10)) % $2,
  CASE WHEN j = 3 THEN CASE e.status WHEN 'validated' THEN 'incorrect' ELSE 'correct' END
       WHEN e.status = 'validated' THEN 'correct' WHEN e.status = 'rejected' THEN 'incorrect' WHEN e.status = 'flagged' THEN 'flagged'
       ELSE (ARRAY['correct', 'incorrect', 'flagged'])[1 + (e.id + j) % 3] END,
  'user', '', true, e.created_at + interval '1 hour' * (j + 1)
FROM examples e CROSS JOIN generate_series(0, 3) j
WHERE e.round = ANY($3::int[]) AND e.fooled
  AND ((e.status IN ('validated', 'rejected', 'flagged') AND (j < 3 OR e.id % 2 = 0)) OR (e.status = 'open' AND j < e.id % 3))
"""
# The counters, from rows (the same definitions as round_count_queries.RECOUNT and validation/queries.RECOUNT_USER;
# the rounds' agreement sums with validation/queries.AGREEMENT_RECOUNT).
SQL_CONTEXT_COUNTERS = """
UPDATE contexts c SET total_used = s.used, total_fooled = s.fooled, last_used_at = s.last
FROM (SELECT context, count(*) AS used, count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled,
             max(created_at) AS last
      FROM examples WHERE round = ANY($1::int[]) GROUP BY context) s
WHERE c.id = s.context
"""
SQL_USER_ROUND_STATS = """
INSERT INTO user_round_stats ("user", round, submitted, fooled, fooled_rejected, retracted, validations_done)
SELECT coalesce(a.user_id, v.user_id), coalesce(a.round, v.round), coalesce(a.submitted, 0), coalesce(a.fooled, 0),
  coalesce(a.fooled_rejected, 0), coalesce(a.retracted, 0), coalesce(v.done, 0)
FROM (SELECT "user" AS user_id, round, count(*) AS submitted,
             count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled,
             count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fooled_rejected,
             count(*) FILTER (WHERE retracted) AS retracted
      FROM examples WHERE round = ANY($1::int[]) GROUP BY "user", round) a
FULL JOIN (SELECT v."user" AS user_id, e.round, count(*) AS done FROM validations v JOIN examples e ON e.id = v.example
           WHERE e.round = ANY($1::int[]) GROUP BY v."user", e.round) v
  ON v.user_id = a.user_id AND v.round = a.round
"""
SQL_DATASETS = """
INSERT INTO datasets (task, round, name, access, weight, created_at)
SELECT $1, NULL, name, access, weight, now() FROM unnest($2::text[], $3::text[], $4::float8[]) AS d(name, access, weight)
RETURNING id, access
"""
SQL_MODELS = """
INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, anonymous, created_at)
SELECT $1, $2 + (g * 37) % $3, 'scale-model-' || g, '{"description": "seeded"}',
  CASE WHEN g <= 200 THEN 'evaluated' WHEN g <= 250 THEN 'failed' ELSE 'deployed' END, '[]',
  'scale_model_' || g, '1', g <= 150, g % 10 = 0, now() - interval '1 day' * (300 - g)
FROM generate_series(1, $4) g
"""
SQL_SECONDARY_INDEXES = """
SELECT indexname, indexdef FROM pg_indexes i
WHERE schemaname = 'public' AND tablename = ANY($1::text[])
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
"""
SQL_SCORES = """
INSERT INTO scores (model, dataset, perf, perf_by_tag, throughput, memory_gb, robustness, fairness, created_at)
SELECT m.id, d, 0.55 + 0.4 * random(), '{}', 20 + 200 * random(), 0.2 + 3 * random(), 0.6 + 0.4 * random(),
  0.6 + 0.4 * random(), now()
FROM models m CROSS JOIN unnest($2::int[]) d WHERE m.task = $1 AND m.status = 'evaluated'
"""


async def seed(
    dsn: str,
    examples: int = 1_000_000,
    users: int = 10_000,
    contexts_per_round: int = 5_000,
    models: int = 300,
    sentences: list[str] | None = None,
    task_code: str = TASK_CODE,
) -> Seeded:
    """Write the whole data set into the database at `dsn` (whose tables exist and hold no `task_code`)."""
    started = time.perf_counter()
    connection = await asyncpg.connect(dsn)
    steps: dict[str, float] = {}
    clock = [time.perf_counter()]

    def done(step: str) -> None:
        now = time.perf_counter()
        steps[step] = round(now - clock[0], 2)
        clock[0] = now

    try:
        await connection.execute("SET synchronous_commit = off")
        await connection.execute("SELECT setseed(0.42)")
        task_id, round_ids, context_starts, user_ids = await _task_rounds_contexts_users(
            connection, task_code, users, contexts_per_round
        )
        done("users, task, rounds, contexts")
        # Bulk load without the secondary indexes, then build them from their own definitions (much
        # faster than maintaining them row by row); constraint indexes (primary key, unique) stay.
        dropped = await connection.fetch(SQL_SECONDARY_INDEXES, ["examples", "validations"])
        for index in dropped:
            await connection.execute(f'DROP INDEX "{index["indexname"]}"')
        # Foreign keys hold by construction (ids are drawn from the rows just written): skip the per-row
        # checks of the bulk inserts.
        await connection.execute("SET session_replication_role = replica")
        try:
            thresholds = [sum(ROUND_SHARES[: i + 1]) * examples + 0.5 for i in range(len(ROUND_SHARES) - 1)]
            sentences = sentences or [f"The food at place {i} was {w}." for i, w in enumerate(["great", "awful", "fine"] * 67)]
            await connection.execute(
                SQL_EXAMPLES,
                round_ids,
                context_starts,
                contexts_per_round,
                user_ids[0],
                users,
                examples,
                thresholds,
                sentences,
                ["negative", "positive", "neutral"],
            )
            done("examples")
            await connection.execute(SQL_VALIDATIONS, user_ids[0], users, round_ids)
            done("validations")
        finally:
            await connection.execute("SET session_replication_role = DEFAULT")
            await connection.execute("SET maintenance_work_mem = '256MB'")
            for index in dropped:
                await connection.execute(index["indexdef"])
            done("secondary indexes")
        await _counters(connection, round_ids)
        done("counters")
        datasets = await connection.fetch(
            SQL_DATASETS,
            task_id,
            ["scale-test-a", "scale-test-b", "scale-test-c", "scale-dev"],
            ["scoring", "scoring", "scoring", "standard"],
            [1.0, 1.0, 2.0, 1.0],
        )
        await connection.execute(SQL_MODELS, task_id, user_ids[0], users, models)
        await connection.execute(SQL_SCORES, task_id, [d["id"] for d in datasets if d["access"] == "scoring"])
        done("models, scores")
        # What autovacuum would have done on a live database: statistics and a visibility map.
        for table in (
            "examples",
            "validations",
            "user_round_stats",
            "contexts",
            "users",
            "rounds",
            "models",
            "scores",
            "datasets",
        ):
            await connection.execute(f"VACUUM (ANALYZE) {table}")
        done("vacuum, analyze")
        n_validations = await connection.fetchval(
            "SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example WHERE e.round = ANY($1::int[])", round_ids
        )
    finally:
        await connection.close()
    return Seeded(task_id, task_code, round_ids, user_ids, examples, n_validations, time.perf_counter() - started, steps)


async def _task_rounds_contexts_users(connection, task_code: str, users: int, contexts_per_round: int):
    from server.tasks.builtin import BUILTIN_TASKS
    from server.tasks.config import parse_task_config

    config, errors = parse_task_config(BUILTIN_TASKS[0]["config"])
    assert config is not None, errors
    async with connection.transaction():
        first_user = await connection.fetchval("SELECT coalesce(max(id), 0) + 1 FROM users")
        await connection.execute(SQL_USERS, users)
        user_ids = [
            r["id"]
            for r in await connection.fetch(
                "SELECT id FROM users WHERE id >= $1 AND username LIKE 'scale_user_%' ORDER BY id", first_user
            )
        ]
        assert user_ids == list(range(user_ids[0], user_ids[0] + users)), "user ids must be consecutive"
        task_id = await connection.fetchval(
            "INSERT INTO tasks (code, name, description, config, active, current_round, created_at) "
            "VALUES ($1, 'Sentiment at scale', 'seeded', $2::jsonb, true, $3, now()) RETURNING id",
            task_code,
            json.dumps(config.model_dump(mode="json")),
            len(ROUND_SHARES),
        )
        round_ids, context_starts = [], []
        for number in range(1, len(ROUND_SHARES) + 1):
            start = datetime.fromisoformat(f"2025-{1 + 3 * (number - 1):02d}-01T00:00:00+00:00")
            end = datetime.fromisoformat(f"2025-{1 + 3 * number:02d}-01T00:00:00+00:00") if number < len(ROUND_SHARES) else None
            round_id = await connection.fetchval(SQL_ROUND, task_id, number, start, end)
            round_ids.append(round_id)
            first = await connection.fetchval("SELECT coalesce(max(id), 0) + 1 FROM contexts")
            await connection.execute(SQL_CONTEXTS, round_id, start, contexts_per_round)
            context_starts.append(
                await connection.fetchval("SELECT min(id) FROM contexts WHERE round = $1 AND id >= $2", round_id, first)
            )
    return task_id, round_ids, context_starts, user_ids


async def _counters(connection, round_ids: list[int]) -> None:
    from server.annotation.round_count_queries import CLEAR, RECOUNT
    from server.annotation.validation.queries import AGREEMENT_CLEAR, AGREEMENT_RECOUNT

    await connection.execute(AGREEMENT_CLEAR.sql, round_ids)
    await connection.execute(AGREEMENT_RECOUNT.sql, round_ids)
    await connection.execute(SQL_CONTEXT_COUNTERS, round_ids)
    await connection.execute(SQL_USER_ROUND_STATS, round_ids)
    for round_id in round_ids:
        await connection.execute(CLEAR.sql, round_id)
        await connection.execute(RECOUNT.sql, round_id)
