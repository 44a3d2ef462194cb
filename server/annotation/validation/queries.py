"""The query room of validation: the validator's queue, votes, aggregation, round and user counters, the numbers."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from server.annotation.records import ExampleRow, ValidationRow, VoteRow
from server.annotation.round_counts import SHARDS
from server.core.jsonutil import to_json
from server.core.sql import Query

_EXAMPLE_JSON = ("input", "model_output")

# --- the validator's queue ----------------------------------------------------------------------

# Open examples this validator may vote on (gold items are served only by quality/gold.py), fooling first,
# then fewest votes, then random. Rows another validator holds a live claim on come last, and FOR UPDATE SKIP LOCKED keeps two
# simultaneous requests from taking the same row: so concurrent validators get different examples
# while others remain. The choice is made among the 500 oldest of them (their upper id bound found
# first, once per call, through the partial index examples_open_by_round), not among every open
# example of the round: ordering a busy round's whole backlog by its vote counts took 60–80 ms at 20k
# open examples. (Joining a 500-row window instead went quadratic under a plan cached while the
# tables were empty: 1 s per call under load.)
_VOTABLE_BY = """
  {alias}.round = :round_id AND {alias}.status = 'open' AND NOT {alias}.retracted AND {alias}."user" <> :user_id
  AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = {alias}.id AND v."user" = :user_id)
  AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = {alias}.id)"""
CANDIDATES = Query(f"""
SELECT e.id FROM examples e
WHERE {_VOTABLE_BY.format(alias="e")}
  AND e.id <= (SELECT coalesce(max(w.id), 0) FROM (
    SELECT w.id FROM examples w WHERE {_VOTABLE_BY.format(alias="w")} ORDER BY w.id LIMIT 500) w)
ORDER BY
  (SELECT count(*) FROM validation_claims c WHERE c.example = e.id AND c."user" <> :user_id AND c.expires_at > now()),
  e.fooled DESC NULLS LAST,
  (SELECT count(*) FROM validations v WHERE v.example = e.id),
  random()
LIMIT :first
FOR UPDATE OF e SKIP LOCKED
""")
CLAIM = Query("""
INSERT INTO validation_claims (example, "user", expires_at)
SELECT unnest(:example_ids::int[]), :user_id, now() + make_interval(mins => :minutes)
ON CONFLICT (example, "user") DO UPDATE SET expires_at = EXCLUDED.expires_at
""")
EXAMPLES_BY_IDS = Query("SELECT * FROM examples WHERE id = ANY(:ids::int[])", json=_EXAMPLE_JSON)
EXAMPLE_BY_ID = Query("SELECT * FROM examples WHERE id = :id", json=_EXAMPLE_JSON)

# The open examples of a round that the viewer may still vote on, by id (a keyset page), and the first
# ones of the live queue (fooling first). Each is served by a small partial index of open examples
# (examples_open_by_round, examples_open_queue; tests/scale checks the plans on a million examples).
# Gold items are never listed: they reach a validator only through the gold mix of nextExamplesToValidate, so
# a list that showed them would single them out.
_NOT_GOLD = "AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id) "
_VOTABLE = (
    "SELECT * FROM examples e WHERE e.round = :round_id AND e.status = 'open' AND NOT e.retracted AND e.\"user\" <> :user_id "
    'AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = e.id AND v."user" = :user_id) ' + _NOT_GOLD
)
EXAMPLES_TO_VALIDATE = Query(_VOTABLE + "AND e.id > :after_id ORDER BY e.id LIMIT :limit", json=_EXAMPLE_JSON)
QUEUE_SNAPSHOT = Query(_VOTABLE + "ORDER BY e.fooled DESC NULLS LAST, e.id LIMIT :limit", json=_EXAMPLE_JSON)
# How many wait for each of these validators, counted up to a cap (a huge backlog reads "cap+"); several at once for a
# process's live queues (batched: server/core/batched_reads.py). The round's open examples are counted once for all
# of them (partial index examples_open_by_round), then each validator's own open examples and the open ones they voted
# on are taken away (gold items are never counted): counting the backlog per validator, with a vote probe per example,
# was a third of PostgreSQL's time under bench/load.py (140,000 buffer blocks per batch of 24 validators). The
# backlog's count stops once it is past the cap for every one of them: the count then reads the cap. A validator's
# votes are read through validations_user, each checked against its example: proportional to their votes (a
# restriction to the round's id range planned badly under load: 4.7 million blocks a call).
COUNT_VOTABLE_MANY = Query("""
WITH counted AS (
  SELECT u.id,
    (SELECT count(*) FROM examples e
      WHERE e."user" = u.id AND e.round = :round_id AND e.status = 'open' AND NOT e.retracted
        AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id)) AS own,
    (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example
      WHERE v."user" = u.id AND e.round = :round_id AND e.status = 'open' AND NOT e.retracted AND e."user" <> u.id
        AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id)) AS voted
  FROM unnest(:user_ids::int[]) AS u(id)
),
gold AS (
  SELECT count(*) AS n FROM gold_items g JOIN examples e ON e.id = g.example
   WHERE e.round = :round_id AND e.status = 'open' AND NOT e.retracted
),
backlog AS (
  SELECT count(*) AS n FROM (
    SELECT 1 FROM examples e WHERE e.round = :round_id AND e.status = 'open' AND NOT e.retracted
     LIMIT :cap + (SELECT coalesce(max(own + voted), 0) FROM counted) + (SELECT n FROM gold)) open_examples
)
SELECT counted.id AS user_id, greatest(0, least(:cap, backlog.n - gold.n - counted.own - counted.voted)) AS waiting
  FROM counted, gold, backlog
""")

# An example announced to the live queue, unless it is a gold item (then None, like a vanished one).
QUEUE_EXAMPLE = Query("SELECT * FROM examples e WHERE e.id = :id " + _NOT_GOLD, json=_EXAMPLE_JSON)


# One pick at a time per round. SKIP LOCKED alone is not enough: a pick whose snapshot was taken before
# another pick committed still sees that pick's rows unclaimed, and their locks are gone by the time it
# reaches them, so two validators could be handed the same example. Waiting here first means the
# candidates statement starts after the previous pick committed and sees its claims. (A pick takes a few
# milliseconds; the lock is released with the transaction.)
SERIALIZE_PICKS = Query("SELECT pg_advisory_xact_lock(:namespace, :round_id)")
_PICKS_LOCK_NAMESPACE = 0x7A11D  # the first key of the two-key advisory lock: "validation picks"


async def serialize_picks(round_id: int) -> None:
    """Call first in the pick's transaction."""
    await SERIALIZE_PICKS.execute(namespace=_PICKS_LOCK_NAMESPACE, round_id=round_id)


async def pick_candidates(round_id: int, user_id: int, first: int) -> list[int]:
    """Call in a transaction: the picked rows stay locked until their claims are written."""
    return [row["id"] for row in await CANDIDATES.records(round_id=round_id, user_id=user_id, first=first)]


async def claim(example_ids: list[int], user_id: int, minutes: int) -> None:
    await CLAIM.execute(example_ids=example_ids, user_id=user_id, minutes=minutes)


async def examples_by_ids(example_ids: list[int]) -> list[ExampleRow]:
    return cast(list[ExampleRow], await EXAMPLES_BY_IDS.rows(ids=example_ids))


async def example_by_id(example_id: int) -> ExampleRow | None:
    return cast(ExampleRow | None, await EXAMPLE_BY_ID.row(id=example_id))


async def examples_to_validate(round_id: int, user_id: int, after_id: int, limit: int) -> list[ExampleRow]:
    rows = await EXAMPLES_TO_VALIDATE.rows(round_id=round_id, user_id=user_id, after_id=after_id, limit=limit)
    return cast(list[ExampleRow], rows)


async def queue_snapshot(round_id: int, user_id: int, limit: int) -> list[ExampleRow]:
    return cast(list[ExampleRow], await QUEUE_SNAPSHOT.rows(round_id=round_id, user_id=user_id, limit=limit))


async def count_votable_many(round_id: int, user_ids: list[int], cap: int) -> dict[int, int]:
    rows = await COUNT_VOTABLE_MANY.rows(round_id=round_id, user_ids=user_ids, cap=cap)
    return {row["user_id"]: int(row["waiting"]) for row in rows}


async def queue_example(example_id: int) -> ExampleRow | None:
    """The example for the live queue; None when it is gone or a gold item."""
    return cast(ExampleRow | None, await QUEUE_EXAMPLE.row(id=example_id))


# --- votes --------------------------------------------------------------------------------------

INSERT_VOTE = Query(
    'INSERT INTO validations (example, "user", label, mode, note, fields, created_at) '
    "VALUES (:example_id, :user_id, :label, :mode, :note, :fields::jsonb, now()) "
    'ON CONFLICT (example, "user") DO NOTHING RETURNING *',
    json=("fields",),
)
CONTEXT_FIELDS = Query("SELECT fields::text FROM contexts WHERE id = :id")
RELEASE_CLAIM = Query('DELETE FROM validation_claims WHERE example = :example_id AND "user" = :user_id')
COUNT_VALIDATION_DONE = Query(
    'INSERT INTO user_round_stats ("user", round, submitted, fooled, retracted, validations_done) '
    'VALUES (:user_id, :round_id, 0, 0, 0, 1) ON CONFLICT ("user", round) DO UPDATE SET '
    "validations_done = user_round_stats.validations_done + 1"
)


async def insert_vote(
    example_id: int, user_id: int, label: str, mode: str, note: str, fields: dict[str, Any] | None = None
) -> ValidationRow | None:
    """The new vote (with its validator fields), or None when this user already voted on the example."""
    row = await INSERT_VOTE.row(
        example_id=example_id, user_id=user_id, label=label, mode=mode, note=note, fields=to_json(fields or {})
    )
    return cast(ValidationRow | None, row)


async def context_fields(context_id: int) -> str:
    """The fields (JSON text) of the context an example was written against."""
    return cast(str, await CONTEXT_FIELDS.value(id=context_id))


# Who was handed these examples (nextExamplesToValidate) and may show them: an example that leaves the queue is
# announced to them and to its voters only (expired claims included: a page may still show what it was handed).
CLAIM_HOLDERS = Query('SELECT example, "user" FROM validation_claims WHERE example = ANY(:example_ids::int[])')


async def claim_holders(example_ids: list[int]) -> dict[int, tuple[int, ...]]:
    """The users holding a claim on each of these examples (examples nobody holds are left out)."""
    holders: dict[int, list[int]] = {}
    for record in await CLAIM_HOLDERS.records(example_ids=example_ids) if example_ids else ():
        holders.setdefault(record["example"], []).append(record["user"])
    return {example: tuple(sorted(users)) for example, users in holders.items()}


async def release_claim(example_id: int, user_id: int) -> None:
    await RELEASE_CLAIM.execute(example_id=example_id, user_id=user_id)


async def count_validation_done(user_id: int, round_id: int) -> None:
    await COUNT_VALIDATION_DONE.execute(user_id=user_id, round_id=round_id)


# --- aggregation --------------------------------------------------------------------------------

LOCK_EXAMPLE = Query("SELECT * FROM examples WHERE id = :id FOR UPDATE")
VOTES = Query('SELECT label, mode, "user", aggregated FROM validations WHERE example = :example_id ORDER BY created_at, id')
SET_STATUS = Query("UPDATE examples SET status = :status WHERE id = :id")
SET_FOOLED = Query("UPDATE examples SET fooled = :fooled WHERE id = :id")
MARK_AGGREGATED = Query("UPDATE validations SET aggregated = true WHERE example = :example_id AND NOT aggregated")
UNAGGREGATED = Query(
    "SELECT DISTINCT example FROM validations WHERE NOT aggregated AND created_at < now() - interval '5 seconds' LIMIT :limit"
)
LOCK_USER_STATS = Query('SELECT id FROM user_round_stats WHERE "user" = :user_id AND round = :round_id FOR UPDATE')
# The per-user counters of one round, recounted from rows (stats read them; createExample, votes and
# retractions move them one at a time). The votes are counted from the person's own (each vote's example read by its
# key): a join on the round let PostgreSQL walk the whole round's examples for every recount (half of its time under
# bench/load.py; tests/scale/list_query_plans.py keeps the plan).
RECOUNT_USER = Query("""
INSERT INTO user_round_stats ("user", round, submitted, fooled, fooled_rejected, retracted, validations_done)
SELECT :user_id, :round_id, a.submitted, a.fooled, a.fooled_rejected, a.retracted,
  (SELECT count(*) FROM validations v
    WHERE v."user" = :user_id AND (SELECT e.round FROM examples e WHERE e.id = v.example) = :round_id)
FROM (SELECT count(*) AS submitted, count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled,
             count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fooled_rejected,
             count(*) FILTER (WHERE retracted) AS retracted
      FROM examples x WHERE "user" = :user_id AND round = :round_id
        AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = x.id AND g.hidden)) a
ON CONFLICT ("user", round) DO UPDATE SET submitted = EXCLUDED.submitted, fooled = EXCLUDED.fooled,
  fooled_rejected = EXCLUDED.fooled_rejected, retracted = EXCLUDED.retracted, validations_done = EXCLUDED.validations_done
""")


async def lock_example(example_id: int) -> dict[str, Any] | None:
    """The example row, locked for the rest of the transaction (jsonb columns left as text)."""
    return await LOCK_EXAMPLE.row(id=example_id)


async def votes(example_id: int) -> list[VoteRow]:
    """In the order they were cast."""
    return cast(list[VoteRow], await VOTES.rows(example_id=example_id))


async def set_status(example_id: int, status: str) -> None:
    await SET_STATUS.execute(id=example_id, status=status)


async def set_fooled(example_id: int, fooled: bool | None) -> None:
    await SET_FOOLED.execute(id=example_id, fooled=fooled)


async def mark_aggregated(example_id: int) -> None:
    await MARK_AGGREGATED.execute(example_id=example_id)


async def unaggregated_examples(limit: int) -> list[int]:
    return [row["example"] for row in await UNAGGREGATED.records(limit=limit)]


async def recount_user(user_id: int, round_id: int) -> None:
    await LOCK_USER_STATS.execute(user_id=user_id, round_id=round_id)
    await RECOUNT_USER.execute(user_id=user_id, round_id=round_id)


TASK = Query("SELECT * FROM tasks WHERE id = :id")


async def task_row(task_id: int) -> dict[str, Any]:
    """A task that a row of this domain refers to (so it exists: foreign keys)."""
    return cast(dict[str, Any], await TASK.row(id=task_id))


# --- the numbers people read --------------------------------------------------------------------

# verified fooled = fooled − fooled-but-rejected (Dynabench's leaderboard definition);
# verified MER = verified fooled / submitted. Retracted examples do not count.
#
# Read from the per-user, per-round counters (user_round_stats: written with every example, vote and
# retraction, and recounted from rows by each aggregation, see RECOUNT_USER), so that a leaderboard
# costs one row per user and round, not one per example: on a million examples the count over rows
# took 0.5–1 s. Users whose every example was retracted and who never voted are left out, and so are system
# accounts (a name sign-up cannot make, starting with '~': the machine adversary of docs/design.md §4.1f).
_TOTALS = """
SELECT t.user_id, u.username, t.submitted, t.fooled, t.verified_fooled, t.validations_done
FROM (SELECT s."user" AS user_id, sum(s.submitted - s.retracted)::int AS submitted, sum(s.fooled)::int AS fooled,
        sum(s.fooled - s.fooled_rejected)::int AS verified_fooled, sum(s.validations_done)::int AS validations_done
      FROM user_round_stats s JOIN rounds r ON r.id = s.round
      WHERE r.task = :task_id AND (:round_number::int IS NULL OR r.number = :round_number::int) %s
      GROUP BY s."user") t
JOIN users u ON u.id = t.user_id
WHERE (t.submitted > 0 OR t.validations_done > 0) AND left(u.username, 1) <> '~'
"""
# The ranking of `stats.rank()`, in SQL, so that only the first rows leave the database.
USER_LEADERBOARD = Query(
    _TOTALS % ""
    + """ORDER BY t.verified_fooled DESC, coalesce(t.verified_fooled::float8 / nullif(t.submitted, 0), 0) DESC,
  t.validations_done DESC, u.username
LIMIT :first
"""
)
USER_STATS = Query(_TOTALS % 'AND s."user" = :user_id')
ACTIVE_DAYS = Query(
    "SELECT DISTINCT (e.created_at AT TIME ZONE 'UTC')::date AS day FROM examples e JOIN rounds r ON r.id = e.round "
    'WHERE r.task = :task_id AND e."user" = :user_id '
    "UNION SELECT DISTINCT (v.created_at AT TIME ZONE 'UTC')::date FROM validations v JOIN examples e ON e.id = v.example "
    'JOIN rounds r ON r.id = e.round WHERE r.task = :task_id AND v."user" = :user_id'
)
# The same, from a date on (a badge check reads only the days a streak it may complete can span).
RECENT_ACTIVE_DAYS = Query(
    "SELECT DISTINCT (e.created_at AT TIME ZONE 'UTC')::date AS day FROM examples e JOIN rounds r ON r.id = e.round "
    'WHERE r.task = :task_id AND e."user" = :user_id AND e.created_at >= :since '
    "UNION SELECT DISTINCT (v.created_at AT TIME ZONE 'UTC')::date FROM validations v JOIN examples e ON e.id = v.example "
    'JOIN rounds r ON r.id = e.round WHERE r.task = :task_id AND v."user" = :user_id AND v.created_at >= :since'
)
# Krippendorff's alpha (nominal) of a round over its user-mode votes, kept as the round's coincidence
# matrix (3×3, row-major over stats.LABEL_CODES) and its number of pairable units (examples with ≥ 2
# such votes): alpha then costs one row read instead of every vote of the round (0.45 s at 1M examples).
# The aggregation job adds each example's change (aggregating.aggregate: its contribution with all
# its votes minus its contribution with the votes already aggregated), so the stored sums always
# equal this recount over aggregated votes, which fills the table from rows (migration, seeding,
# checks).
AGREEMENT_FROM_ROWS = Query("""
SELECT round, count(*)::int AS units,
  ARRAY[sum((c * c - c)::float8 / (m - 1)), sum((c * i)::float8 / (m - 1)), sum((c * f)::float8 / (m - 1)),
        sum((i * c)::float8 / (m - 1)), sum((i * i - i)::float8 / (m - 1)), sum((i * f)::float8 / (m - 1)),
        sum((f * c)::float8 / (m - 1)), sum((f * i)::float8 / (m - 1)), sum((f * f - f)::float8 / (m - 1))] AS coincidences
FROM (SELECT e.round, count(*) FILTER (WHERE v.label = 'correct') AS c, count(*) FILTER (WHERE v.label = 'incorrect') AS i,
             count(*) FILTER (WHERE v.label = 'flagged') AS f, count(*) AS m
      FROM validations v JOIN examples e ON e.id = v.example
      WHERE e.round = ANY(:round_ids::int[]) AND v.mode = 'user' AND v.aggregated GROUP BY e.round, v.example) units
WHERE m >= 2
GROUP BY round
""")
# The sums are kept in a few rows per round (the shard is the aggregating connection's, as for the round's counters:
# annotation/round_count_queries.py), so concurrent aggregations of one round do not queue on one row; reads add them.
AGREEMENT_CLEAR = Query("DELETE FROM round_agreement WHERE round = ANY(:round_ids::int[])")
AGREEMENT_RECOUNT = Query(f"""
INSERT INTO round_agreement (round, shard, units, coincidences)
SELECT round, 0, units, coincidences FROM ({AGREEMENT_FROM_ROWS.text}) recount
""")
AGREEMENT_ADD = Query(f"""
INSERT INTO round_agreement (round, shard, units, coincidences)
VALUES (:round_id, pg_backend_pid() % {SHARDS}, :units, :coincidences::float8[])
ON CONFLICT (round, shard) DO UPDATE SET units = round_agreement.units + EXCLUDED.units,
  coincidences = ARRAY(SELECT a + b FROM unnest(round_agreement.coincidences, EXCLUDED.coincidences)
                       WITH ORDINALITY AS t(a, b, n) ORDER BY n)
""")
AGREEMENT = Query("SELECT units, coincidences FROM round_agreement_totals WHERE round = :round_id")


async def leaderboard_rows(task_id: int, round_number: int | None, first: int) -> list[dict[str, Any]]:
    return await USER_LEADERBOARD.rows(task_id=task_id, round_number=round_number, first=first)


async def user_stats_row(task_id: int, round_number: int | None, user_id: int) -> dict[str, Any] | None:
    return await USER_STATS.row(task_id=task_id, round_number=round_number, user_id=user_id)


async def active_days(task_id: int, user_id: int) -> list[dict[str, Any]]:
    return await ACTIVE_DAYS.rows(task_id=task_id, user_id=user_id)


async def recent_active_days(task_id: int, user_id: int, since: datetime) -> list[dict[str, Any]]:
    return await RECENT_ACTIVE_DAYS.rows(task_id=task_id, user_id=user_id, since=since)


async def agreement(round_id: int) -> dict[str, Any] | None:
    return await AGREEMENT.row(round_id=round_id)


async def add_to_agreement(round_id: int, units: int, coincidences: list[float]) -> None:
    await AGREEMENT_ADD.execute(round_id=round_id, units=units, coincidences=coincidences)
