"""The query room of adversary runs: the runs, the machine account that authors their examples, and the figures of a
run counted from its examples (examples.assisted_by {kind: machine, run}, indexed by examples_machine_run)."""

from __future__ import annotations

import uuid
from typing import Any

from server.core.sql import Query

_RUN = "examples e WHERE (e.assisted_by ->> 'run')::int = r.id AND e.assisted_by ->> 'kind' = 'machine'"
# A run with its figures: produced (not retracted), fooled, validated, validated fooled, still awaiting validation.
_WITH_FIGURES = f"""
SELECT r.*, u.username AS started_by_name, f.*
FROM adversary_runs r JOIN users u ON u.id = r.started_by
CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE NOT e.retracted) AS produced,
    count(*) FILTER (WHERE e.fooled AND NOT e.retracted) AS fooled,
    count(*) FILTER (WHERE e.status = 'validated' AND NOT e.retracted) AS validated,
    count(*) FILTER (WHERE e.fooled AND e.status = 'validated' AND NOT e.retracted) AS validated_fooled,
    count(*) FILTER (WHERE e.status = 'open' AND NOT e.retracted) AS awaiting_validation
  FROM {_RUN}) f
"""

INSERT = Query(
    """
INSERT INTO adversary_runs (client_id, round, task, started_by, requested, generator)
VALUES (:client_id, :round, :task, :started_by, :requested, :generator)
ON CONFLICT DO NOTHING
RETURNING *
"""
)
BY_CLIENT_ID = Query("SELECT * FROM adversary_runs WHERE client_id = :client_id")
BY_ID = Query("SELECT * FROM adversary_runs WHERE id = :id")
WITH_FIGURES = Query(_WITH_FIGURES + " WHERE r.id = :id")
OF_ROUND = Query(_WITH_FIGURES + " WHERE r.round = :round ORDER BY r.id DESC LIMIT :limit")
ACTIVE_OF_TASK = Query("SELECT id FROM adversary_runs WHERE task = :task AND status IN ('queued', 'running')")
# Examples asked of a task's runs started since midnight UTC (the per-task daily cap).
REQUESTED_TODAY = Query(
    """SELECT coalesce(sum(requested), 0)::int FROM adversary_runs
WHERE task = :task AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"""
)
# Counted from rows every time (a re-run after a crash continues from what is stored): the next index to write.
WRITTEN = Query(
    "SELECT count(*)::int FROM examples e WHERE (e.assisted_by ->> 'run')::int = :run AND e.assisted_by ->> 'kind' = 'machine'"
)
# Status moves only forward: queued → running → done | failed | cancelled; a finished run is never changed again.
SET_RUNNING = Query(
    """UPDATE adversary_runs SET status = 'running', started_at = coalesce(started_at, now())
WHERE id = :id AND status IN ('queued', 'running') RETURNING *"""
)
FINISH = Query(
    """UPDATE adversary_runs SET status = :status, error = :error, finished_at = now()
WHERE id = :id AND status IN ('queued', 'running') RETURNING *"""
)
ADD_REFUSED = Query("UPDATE adversary_runs SET refused = refused + :count WHERE id = :id")

# The machine account: created once, never able to sign in (no password verifies '!', and it is disabled).
MACHINE_ACCOUNT = Query(
    """
WITH made AS (
  INSERT INTO users (username, password_hash, is_admin, session_epoch, created_at, disabled_at, disabled_reason)
  VALUES (:username, '!', false, 0, now(), now(), 'The machine adversary: it writes the examples of adversary runs.')
  ON CONFLICT (username) DO NOTHING RETURNING id
)
SELECT id FROM made UNION ALL SELECT id FROM users WHERE username = :username LIMIT 1
"""
)


async def insert(**values: Any) -> dict[str, Any] | None:
    return await INSERT.row(**values)


async def by_client_id(client_id: uuid.UUID) -> dict[str, Any] | None:
    return await BY_CLIENT_ID.row(client_id=client_id)


async def by_id(run_id: int) -> dict[str, Any] | None:
    return await BY_ID.row(id=run_id)


async def with_figures(run_id: int) -> dict[str, Any] | None:
    return await WITH_FIGURES.row(id=run_id)


async def of_round(round_id: int, limit: int) -> list[dict[str, Any]]:
    return await OF_ROUND.rows(round=round_id, limit=limit)


async def active_of_task(task_id: int) -> int | None:
    return await ACTIVE_OF_TASK.value(task=task_id)


async def requested_today(task_id: int) -> int:
    return int(await REQUESTED_TODAY.value(task=task_id) or 0)


async def written(run_id: int) -> int:
    return int(await WRITTEN.value(run=run_id) or 0)


async def set_running(run_id: int) -> dict[str, Any] | None:
    return await SET_RUNNING.row(id=run_id)


async def finish(run_id: int, status: str, error: str = "") -> dict[str, Any] | None:
    return await FINISH.row(id=run_id, status=status, error=error[:2000])


async def add_refused(run_id: int, count: int) -> None:
    await ADD_REFUSED.execute(id=run_id, count=count)


async def machine_account(username: str) -> int:
    # A concurrent first use may insert it after this statement's snapshot: the second read sees it.
    found = await MACHINE_ACCOUNT.value(username=username)
    return int(found if found is not None else await MACHINE_ACCOUNT.value(username=username))
