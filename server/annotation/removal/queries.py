"""The query room of a deleted account's removed work (server/annotation/removal/service.py): what the account wrote
or cast in the given tasks, and the statements that remove it.

What hangs from an example goes with it by the schema's ON DELETE CASCADE: its votes, validation claims, gold item and
gold answers, near-duplicate vectors and owners' history (`example_events`); a conversation that became an example
would only lose its link (SET NULL), so the account's conversations are deleted explicitly (their turns, and battle
sides, cascade), and so are its battles (their sides, vote and continuation cascade)."""

from __future__ import annotations

from typing import Any

from server.core.sql import Query

# The rounds of the tasks concerned: every statement below is limited to them.
_ROUNDS = "SELECT id FROM rounds WHERE task = ANY(:tasks::int[])"

# (user, task) for each of `users` with any work in one of `tasks`: examples, votes, conversations, battles,
# suggestions, gold answers, refused near-duplicates.
WORK_IN_TASKS = Query("""
SELECT w.id AS "user", r.task FROM unnest(:users::int[]) AS w(id) JOIN rounds r ON r.task = ANY(:tasks::int[])
WHERE EXISTS (SELECT 1 FROM examples e WHERE e.round = r.id AND e."user" = w.id)
   OR EXISTS (SELECT 1 FROM validations v JOIN examples e ON e.id = v.example WHERE v."user" = w.id AND e.round = r.id)
   OR EXISTS (SELECT 1 FROM conversations c WHERE c.round = r.id AND c."user" = w.id)
   OR EXISTS (SELECT 1 FROM battles b WHERE b.round = r.id AND b."user" = w.id)
   OR EXISTS (SELECT 1 FROM suggestions s WHERE s.round = r.id AND s."user" = w.id)
UNION SELECT "user", task FROM gold_answers WHERE "user" = ANY(:users::int[]) AND task = ANY(:tasks::int[])
UNION SELECT "user", task FROM duplicate_refusals WHERE "user" = ANY(:users::int[]) AND task = ANY(:tasks::int[])
ORDER BY 1, 2
""")
EXAMPLES_OF = Query(f'SELECT id FROM examples WHERE "user" = :user AND round IN ({_ROUNDS}) ORDER BY id')
# Others' examples the account voted on.
VOTED_ON = Query(f"""
SELECT DISTINCT e.id FROM validations v JOIN examples e ON e.id = v.example
WHERE v."user" = :user AND e."user" <> :user AND e.round IN ({_ROUNDS}) ORDER BY e.id""")
# Undecided examples voted on by the validators whose gold answers on these examples (gold items the account wrote)
# go with them: their pause state may change, and the gold rule counts their votes only while they are not paused.
REGRADED = Query("""
SELECT DISTINCT e.id FROM gold_answers g
JOIN validations v ON v."user" = g."user" AND v.mode = 'user'
JOIN examples e ON e.id = v.example AND e.status IN ('open', 'closed')
JOIN rounds r ON r.id = e.round AND r.task = g.task
WHERE g.example = ANY(:examples::int[]) ORDER BY e.id""")
# Locked in ascending id (docs/design.md §6: examples first; no writer holds two examples).
LOCK_EXAMPLES = Query("SELECT * FROM examples WHERE id = ANY(:ids::int[]) ORDER BY id FOR UPDATE")
# The votes the round's agreement sums hold (user mode, aggregated), per example, with their voter.
AGGREGATED_VOTES = Query("""
SELECT example, "user", label FROM validations WHERE example = ANY(:ids::int[]) AND mode = 'user' AND aggregated
ORDER BY example, created_at, id""")
# Whose votes on these examples go with them: their counters are recounted.
VOTERS = Query(
    'SELECT DISTINCT e.round, v."user" FROM validations v JOIN examples e ON e.id = v.example WHERE v.example = ANY(:ids::int[])'
)
# Contexts count the examples written on them (total_used) and those fooling, not retracted (total_fooled); uploaded
# hidden gold moved neither (quality/gold_upload.py).
UNCOUNT_CONTEXTS = Query("""
UPDATE contexts c SET total_used = greatest(c.total_used - x.used, 0), total_fooled = greatest(c.total_fooled - x.fooled, 0)
FROM (SELECT context, count(*) AS used, count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled FROM examples e
      WHERE id = ANY(:ids::int[]) AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)
      GROUP BY context) x
WHERE c.id = x.context""")
DELETE_VOTES = Query(f"""
WITH claims AS (
  DELETE FROM validation_claims c USING examples e WHERE e.id = c.example AND c."user" = :user AND e.round IN ({_ROUNDS})
)
DELETE FROM validations v USING examples e WHERE e.id = v.example AND v."user" = :user AND e.round IN ({_ROUNDS})
RETURNING v.id""")
DELETE_EXAMPLES = Query("DELETE FROM examples WHERE id = ANY(:ids::int[])")
# The tasks in which the account's battle votes go (their ratings are computed again).
BATTLE_VOTE_TASKS = Query(f"""
SELECT DISTINCT r.task FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE v."user" = :user AND r.id IN ({_ROUNDS})""")
DELETE_BATTLES = Query(f'DELETE FROM battles WHERE "user" = :user AND round IN ({_ROUNDS})')
DELETE_CONVERSATIONS = Query(f'DELETE FROM conversations WHERE "user" = :user AND round IN ({_ROUNDS})')
# The rest of the account's rows in those tasks: suggestions issued to it (perturbations hold its drafts), its gold
# answers, its refused near-duplicates and its per-round counters (nothing left to count).
DELETE_REST = Query(f"""
WITH suggested AS (DELETE FROM suggestions WHERE "user" = :user AND round IN ({_ROUNDS})),
gold AS (DELETE FROM gold_answers WHERE "user" = :user AND task = ANY(:tasks::int[])),
refused AS (DELETE FROM duplicate_refusals WHERE "user" = :user AND task = ANY(:tasks::int[]))
DELETE FROM user_round_stats WHERE "user" = :user AND round IN ({_ROUNDS})""")


async def work_in_tasks(users: list[int], tasks: list[int]) -> list[dict[str, Any]]:
    return await WORK_IN_TASKS.rows(users=users, tasks=tasks)


async def examples_of(user_id: int, tasks: list[int]) -> list[int]:
    return [row["id"] for row in await EXAMPLES_OF.records(user=user_id, tasks=tasks)]


async def voted_on(user_id: int, tasks: list[int]) -> list[int]:
    return [row["id"] for row in await VOTED_ON.records(user=user_id, tasks=tasks)]


async def regraded(example_ids: list[int]) -> list[int]:
    return [row["id"] for row in await REGRADED.records(examples=example_ids)] if example_ids else []


async def lock_examples(example_ids: list[int]) -> list[dict[str, Any]]:
    """The rows (jsonb as text, as validation's lock reads them), locked for the rest of the transaction."""
    return await LOCK_EXAMPLES.rows(ids=example_ids)


async def aggregated_votes(example_ids: list[int]) -> list[dict[str, Any]]:
    return await AGGREGATED_VOTES.rows(ids=example_ids)


async def voters(example_ids: list[int]) -> list[tuple[int, int]]:
    """(round, user) of every vote on these examples."""
    return [(row["round"], row["user"]) for row in await VOTERS.records(ids=example_ids)]


async def uncount_contexts(example_ids: list[int]) -> None:
    await UNCOUNT_CONTEXTS.execute(ids=example_ids)


async def delete_votes(user_id: int, tasks: list[int]) -> int:
    """The account's votes (and validation claims) in those tasks; how many votes."""
    return len(await DELETE_VOTES.records(user=user_id, tasks=tasks))


async def delete_examples(example_ids: list[int]) -> None:
    await DELETE_EXAMPLES.execute(ids=example_ids)


async def delete_conversations(user_id: int, tasks: list[int]) -> list[int]:
    """The account's battles and conversations in those tasks; the tasks whose battle votes went."""
    voted = [row["task"] for row in await BATTLE_VOTE_TASKS.records(user=user_id, tasks=tasks)]
    await DELETE_BATTLES.execute(user=user_id, tasks=tasks)
    await DELETE_CONVERSATIONS.execute(user=user_id, tasks=tasks)
    return voted


async def delete_rest(user_id: int, tasks: list[int]) -> None:
    await DELETE_REST.execute(user=user_id, tasks=tasks)
