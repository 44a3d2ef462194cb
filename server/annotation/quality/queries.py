"""The query room of crowd quality: refused near-duplicates, gold items, gold answers, validator stats."""

from __future__ import annotations

import uuid
from typing import Any

from server.core.sql import Query

# --- the near-duplicate guard -------------------------------------------------------------------

# The worker's own earlier examples of the task (not retracted, not this client UUID: a retry is not a repeat) and
# the round's validated examples (newest first, each side capped), served by examples ("user", id) and (round).
# With each, its vector from the encoder named (NULL: none stored by that encoder, or no encoder asked for).
EARLIER_EXAMPLES = Query(
    """
(SELECT e.id, e.input, true AS own, v.vector FROM examples e JOIN rounds r ON r.id = e.round
 LEFT JOIN example_vectors v ON v.example = e.id AND v.encoder = :encoder
 WHERE e."user" = :user AND r.task = :task AND NOT e.retracted AND e.client_id IS DISTINCT FROM :client_id
   AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)
 ORDER BY e.id DESC LIMIT :cap)
UNION ALL
(SELECT e.id, e.input, false AS own, v.vector FROM examples e
 LEFT JOIN example_vectors v ON v.example = e.id AND v.encoder = :encoder
 WHERE e.round = :round AND e.status = 'validated' AND e."user" <> :user AND NOT e.retracted
   AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.example = e.id AND g.hidden)
 ORDER BY e.id DESC LIMIT :cap)
""",
    json=("input",),
)
STORE_VECTOR = Query("""
INSERT INTO example_vectors (example, encoder, vector) VALUES (:example, :encoder, :vector)
ON CONFLICT (example) DO UPDATE SET encoder = EXCLUDED.encoder, vector = EXCLUDED.vector
""")

# One author's submissions are checked for repeats one at a time (a transaction-level advisory lock: two keys).
LOCK_AUTHOR = Query("SELECT pg_advisory_xact_lock(:namespace, :user)")
_AUTHOR_LOCK_NAMESPACE = 0xD0B1E  # the first key: "near-duplicate checks"

RECORD_REFUSAL = Query("""
INSERT INTO duplicate_refusals (client_id, task, "user", repeats, kind) VALUES (:client_id, :task, :user, :repeats, :kind)
ON CONFLICT (client_id) DO NOTHING
""")

REFUSALS_OF_TASK = Query("SELECT count(*) FROM duplicate_refusals WHERE task = :task")


async def earlier_examples(
    task_id: int, round_id: int, user_id: int, client_id: uuid.UUID | None, cap: int, encoder: str | None = None
) -> list[dict[str, Any]]:
    return await EARLIER_EXAMPLES.rows(task=task_id, round=round_id, user=user_id, client_id=client_id, cap=cap, encoder=encoder)


async def lock_author(user_id: int) -> None:
    """Call in the transaction that checks and stores the author's example."""
    await LOCK_AUTHOR.execute(namespace=_AUTHOR_LOCK_NAMESPACE, user=user_id)


async def store_vector(example_id: int, encoder: str, vector: bytes) -> None:
    await STORE_VECTOR.execute(example=example_id, encoder=encoder, vector=vector)


async def record_refusal(client_id: uuid.UUID, task_id: int, user_id: int, repeats: int, kind: str) -> None:
    await RECORD_REFUSAL.execute(client_id=client_id, task=task_id, user=user_id, repeats=repeats, kind=kind)


async def refusals_of_task(task_id: int) -> int:
    return int(await REFUSALS_OF_TASK.value(task=task_id))


# --- gold items ---------------------------------------------------------------------------------

MARK_GOLD = Query("""
INSERT INTO gold_items (example, task, answer) VALUES (:example, :task, :answer)
ON CONFLICT (example) DO UPDATE SET answer = EXCLUDED.answer
""")
UNMARK_GOLD = Query("DELETE FROM gold_items WHERE example = :example RETURNING example, hidden")
# What an unmarked hidden gold example starts to count for in its round (locked: as an aggregation locks it).
LOCK_EXAMPLE_STATE = Query("SELECT round, retracted, fooled, status FROM examples WHERE id = :example FOR UPDATE")
GOLD_OF_EXAMPLE = Query("SELECT example, task, answer, hidden FROM gold_items WHERE example = :example")
# The round's gold items this validator may be served: not their own, not retracted, not answered yet, and judged
# (one still awaiting its model's answer or its author's claim would have no verdict: a tell, and not answerable).
FRESH_GOLD = Query("""
SELECT g.example FROM gold_items g JOIN examples e ON e.id = g.example
WHERE e.round = :round AND e."user" <> :user AND NOT e.retracted AND e.status NOT IN ('pending', 'awaiting_claim')
  AND NOT EXISTS (SELECT 1 FROM gold_answers a WHERE a.example = g.example AND a."user" = :user)
ORDER BY g.example
""")
INSERT_GOLD_ANSWER = Query("""
INSERT INTO gold_answers (example, task, "user", label, gold_label) VALUES (:example, :task, :user, :label, :gold_label)
ON CONFLICT (example, "user") DO NOTHING
RETURNING example, "user", label, created_at
""")
# Only the answers given after the validator's latest reinstatement in the task count toward the pause rule.
GOLD_COUNTS = Query("""
SELECT a."user", count(*) AS answered, count(*) FILTER (WHERE a.label = a.gold_label) AS right FROM gold_answers a
LEFT JOIN validator_reinstatements r ON r.task = a.task AND r."user" = a."user"
WHERE a.task = :task AND a."user" = ANY(:users::int[]) AND (r.reinstated_at IS NULL OR a.created_at > r.reinstated_at)
GROUP BY a."user"
""")
# The votes a paused validator cast on the task's examples that are still undecided: re-aggregated without them.
OPEN_VOTED_EXAMPLES = Query("""
SELECT v.example FROM validations v JOIN examples e ON e.id = v.example JOIN rounds r ON r.id = e.round
WHERE v."user" = :user AND r.task = :task AND e.status IN ('open', 'closed') AND v.mode = 'user'
""")
# Owners' view: everyone who validated in the task (votes or gold answers), with their gold counts (all of them, and
# those since their latest reinstatement: the pause rule's), or only the one of that username.
VALIDATORS_OF_TASK = Query("""
WITH voters AS (
  SELECT v."user", count(*) AS votes FROM validations v JOIN examples e ON e.id = v.example JOIN rounds r ON r.id = e.round
  WHERE r.task = :task AND v.mode = 'user' GROUP BY v."user"
), gold AS (
  SELECT a."user", count(*) AS answered, count(*) FILTER (WHERE a.label = a.gold_label) AS right,
    count(*) FILTER (WHERE r.reinstated_at IS NULL OR a.created_at > r.reinstated_at) AS answered_since,
    count(*) FILTER (WHERE a.label = a.gold_label AND (r.reinstated_at IS NULL OR a.created_at > r.reinstated_at))
      AS right_since
  FROM gold_answers a LEFT JOIN validator_reinstatements r ON r.task = a.task AND r."user" = a."user"
  WHERE a.task = :task GROUP BY a."user"
)
SELECT u.id AS "user", u.username, coalesce(voters.votes, 0) AS votes, coalesce(gold.answered, 0) AS gold_answered,
  coalesce(gold.right, 0) AS gold_right, coalesce(gold.answered_since, 0) AS gold_answered_since,
  coalesce(gold.right_since, 0) AS gold_right_since, ri.reinstated_at
FROM (SELECT "user" FROM voters UNION SELECT "user" FROM gold) who JOIN users u ON u.id = who."user"
LEFT JOIN voters ON voters."user" = who."user" LEFT JOIN gold ON gold."user" = who."user"
LEFT JOIN validator_reinstatements ri ON ri.task = :task AND ri."user" = who."user"
WHERE :username::text IS NULL OR u.username = :username::text
ORDER BY u.username LIMIT :limit
""")
# The owner's reinstatement of a paused validator: from now on only later gold answers count (latest one wins).
REINSTATE = Query("""
INSERT INTO validator_reinstatements (task, "user", reinstated_by) VALUES (:task, :user, :by)
ON CONFLICT (task, "user") DO UPDATE SET reinstated_at = now(), reinstated_by = EXCLUDED.reinstated_by
""")


async def mark_gold(example_id: int, task_id: int, answer: str) -> None:
    await MARK_GOLD.execute(example=example_id, task=task_id, answer=answer)


async def unmark_gold(example_id: int) -> dict[str, Any] | None:
    """{"example", "hidden"} of the gold item removed; None when the example was not gold."""
    return await UNMARK_GOLD.row(example=example_id)


async def lock_example_state(example_id: int) -> dict[str, Any] | None:
    return await LOCK_EXAMPLE_STATE.row(example=example_id)


async def gold_of_example(example_id: int) -> dict[str, Any] | None:
    return await GOLD_OF_EXAMPLE.row(example=example_id)


async def fresh_gold(round_id: int, user_id: int) -> list[int]:
    return [row["example"] for row in await FRESH_GOLD.rows(round=round_id, user=user_id)]


async def insert_gold_answer(example_id: int, task_id: int, user_id: int, label: str, gold_label: str) -> dict[str, Any] | None:
    return await INSERT_GOLD_ANSWER.row(example=example_id, task=task_id, user=user_id, label=label, gold_label=gold_label)


async def gold_counts(task_id: int, user_ids: list[int]) -> dict[int, tuple[int, int]]:
    rows = await GOLD_COUNTS.rows(task=task_id, users=user_ids)
    return {row["user"]: (row["answered"], row["right"]) for row in rows}


async def open_voted_examples(task_id: int, user_id: int) -> list[int]:
    return [row["example"] for row in await OPEN_VOTED_EXAMPLES.rows(task=task_id, user=user_id)]


async def validators_of_task(task_id: int, limit: int, username: str | None = None) -> list[dict[str, Any]]:
    return await VALIDATORS_OF_TASK.rows(task=task_id, limit=limit, username=username)


async def reinstate(task_id: int, user_id: int, by: int) -> None:
    await REINSTATE.execute(task=task_id, user=user_id, by=by)


# --- validator reliability (Dawid–Skene) ------------------------------------------------------------

# The version of a task's vote history: any vote inserted or deleted moves it (votes are never updated).
VOTE_HISTORY_VERSION = Query("""
SELECT count(*) AS n, coalesce(max(v.id), 0) AS last FROM validations v JOIN examples e ON e.id = v.example
JOIN rounds r ON r.id = e.round WHERE r.task = :task AND v.mode = 'user'
""")
# The newest `cap` user-mode votes of the task (the fit's window).
VOTE_HISTORY = Query("""
SELECT v.example, v."user", v.label FROM validations v JOIN examples e ON e.id = v.example
JOIN rounds r ON r.id = e.round WHERE r.task = :task AND v.mode = 'user' ORDER BY v.id DESC LIMIT :cap
""")


async def vote_history_version(task_id: int) -> tuple[int, int]:
    row = await VOTE_HISTORY_VERSION.row(task=task_id)
    return (int(row["n"]), int(row["last"])) if row else (0, 0)


async def vote_history(task_id: int, cap: int) -> list[dict[str, Any]]:
    return await VOTE_HISTORY.rows(task=task_id, cap=cap)


# --- uploaded (hidden) gold items -------------------------------------------------------------------

# The context an uploaded gold row is shown with: the named one if it belongs to the round, else the round's first.
GOLD_CONTEXT = Query("""
SELECT id FROM contexts WHERE round = :round AND (:context::int IS NULL OR id = :context) ORDER BY id LIMIT 1
""")
# A hidden gold example: judged like a submission (the model's output and verdict, or pending until its model answers:
# then examples/pending.py fills them), but no counter moves (round and user counters are recounted without hidden gold:
# validation/queries.py) and it is never a candidate of the ordinary queue.
INSERT_HIDDEN_GOLD = Query("""
WITH new AS (
  INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version, fooled,
    status, retracted, flagged, flag_reason, explanation, time_spent_ms, pending_reason, check_attempts, next_check_at,
    created_at)
  VALUES (gen_random_uuid(), :round, :context, :user, :input::jsonb, :output::jsonb, :name, :version, :fooled, :status::text,
    false, false, '', '', NULL, :reason, 0, CASE WHEN :status::text = 'pending' THEN now() END, now())
  RETURNING id
)
INSERT INTO gold_items (example, task, answer, hidden) SELECT id, :task, :answer, true FROM new RETURNING example
""")


async def gold_context(round_id: int, context_id: int | None) -> int | None:
    row = await GOLD_CONTEXT.row(round=round_id, context=context_id)
    return None if row is None else int(row["id"])


async def insert_hidden_gold(
    round_id: int,
    task_id: int,
    context_id: int,
    user_id: int,
    stored_input: str,
    answer: str,
    *,
    output: str | None,
    model_name: str,
    model_version: str,
    fooled: bool | None,
    status: str,
    pending_reason: str,
) -> int:
    row = await INSERT_HIDDEN_GOLD.row(
        round=round_id,
        task=task_id,
        context=context_id,
        user=user_id,
        input=stored_input,
        answer=answer,
        output=output,
        name=model_name,
        version=model_version,
        fooled=fooled,
        status=status,
        reason=pending_reason,
    )
    assert row is not None
    return int(row["example"])
