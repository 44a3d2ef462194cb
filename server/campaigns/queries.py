"""The campaigns domain's query room: every statement on campaigns, their workers, the ledger and approved
submissions, and the counts the quotas and the ledger read from examples and validations."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from server.campaigns.records import CampaignRow, LedgerLineRow, ProgressRow, WorkerRow
from server.core.jsonutil import to_json
from server.core.sql import Query

_CAMPAIGN_JSON = ("quiz", "quotas")

# Campaigns --------------------------------------------------------------------------------------

INSERT_CAMPAIGN = Query(
    """
    INSERT INTO campaigns (task, round, platform, title, status, code, consent_md, instructions_md, quiz, quotas,
                           currency, base_cents, fooling_bonus_cents, agree_bonus_cents, bonus_cap_cents,
                           completion_code, failure_code, completion_redirect, created_by)
    VALUES (:task, :round, :platform, :title, :status, :code, :consent_md, :instructions_md, :quiz::jsonb,
            :quotas::jsonb, :currency, :base_cents, :fooling_bonus_cents, :agree_bonus_cents, :bonus_cap_cents,
            :completion_code, :failure_code, :completion_redirect, :created_by)
    RETURNING *
""",
    json=_CAMPAIGN_JSON,
)

UPDATE_CAMPAIGN = Query(
    """
    UPDATE campaigns SET round = :round, platform = :platform, title = :title, status = :status,
           consent_md = :consent_md, instructions_md = :instructions_md, quiz = :quiz::jsonb, quotas = :quotas::jsonb,
           currency = :currency, base_cents = :base_cents, fooling_bonus_cents = :fooling_bonus_cents,
           agree_bonus_cents = :agree_bonus_cents, bonus_cap_cents = :bonus_cap_cents,
           completion_code = :completion_code, failure_code = :failure_code, completion_redirect = :completion_redirect
     WHERE id = :id
    RETURNING *
""",
    json=_CAMPAIGN_JSON,
)

CAMPAIGN_BY_ID = Query("SELECT * FROM campaigns WHERE id = :id", json=_CAMPAIGN_JSON)
LOCK_CAMPAIGN = Query("SELECT * FROM campaigns WHERE id = :id FOR UPDATE", json=_CAMPAIGN_JSON)
CAMPAIGN_BY_CODE = Query("SELECT * FROM campaigns WHERE code = :code", json=_CAMPAIGN_JSON)
CAMPAIGNS_OF_TASK = Query("SELECT * FROM campaigns WHERE task = :task ORDER BY id DESC LIMIT :limit", json=_CAMPAIGN_JSON)
CAMPAIGNS_OF_ROUND = Query("SELECT id FROM campaigns WHERE round = :round AND status <> 'draft'")
LIVE_CAMPAIGNS = Query("SELECT id FROM campaigns WHERE status <> 'draft' ORDER BY id")
ROUND_OF_TASK = Query("SELECT id FROM rounds WHERE task = :task AND number = :number")


def _campaign(row: dict[str, Any] | None) -> CampaignRow | None:
    return cast(CampaignRow | None, row)


async def insert_campaign(values: dict[str, Any]) -> CampaignRow:
    row = await INSERT_CAMPAIGN.row(**_encoded(values))
    assert row is not None
    return cast(CampaignRow, row)


async def update_campaign(campaign_id: int, values: dict[str, Any]) -> CampaignRow:
    row = await UPDATE_CAMPAIGN.row(id=campaign_id, **_encoded(values))
    assert row is not None
    return cast(CampaignRow, row)


def _encoded(values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    out["quiz"] = to_json(values["quiz"]) if values["quiz"] is not None else None
    out["quotas"] = to_json(values["quotas"])
    return out


async def campaign_by_id(campaign_id: int) -> CampaignRow | None:
    return _campaign(await CAMPAIGN_BY_ID.row(id=campaign_id))


async def lock_campaign(campaign_id: int) -> CampaignRow | None:
    return _campaign(await LOCK_CAMPAIGN.row(id=campaign_id))


async def campaign_by_code(code: str) -> CampaignRow | None:
    return _campaign(await CAMPAIGN_BY_CODE.row(code=code))


async def campaigns_of_task(task_id: int, limit: int) -> list[CampaignRow]:
    return cast(list[CampaignRow], await CAMPAIGNS_OF_TASK.rows(task=task_id, limit=limit))


async def live_campaigns_of_round(round_id: int) -> list[int]:
    return [r["id"] for r in await CAMPAIGNS_OF_ROUND.records(round=round_id)]


async def live_campaigns() -> list[int]:
    return [r["id"] for r in await LIVE_CAMPAIGNS.records()]


async def round_of_task(task_id: int, number: int) -> int | None:
    return await ROUND_OF_TASK.value(task=task_id, number=number)


# Workers ----------------------------------------------------------------------------------------

WORKER_BY_KEY = Query("SELECT * FROM campaign_workers WHERE campaign = :campaign AND external_key = :key", json=("entry",))
WORKER_OF_USER = Query('SELECT * FROM campaign_workers WHERE "user" = :user', json=("entry",))
LOCK_WORKER_OF_USER = Query('SELECT * FROM campaign_workers WHERE "user" = :user FOR UPDATE', json=("entry",))
INSERT_WORKER = Query(
    """
    INSERT INTO campaign_workers (campaign, "user", external_key, entry) VALUES (:campaign, :user, :key, :entry::jsonb)
    ON CONFLICT (campaign, external_key) DO NOTHING
    RETURNING *
""",
    json=("entry",),
)
SET_ENTRY = Query("UPDATE campaign_workers SET entry = :entry::jsonb WHERE id = :id")
INSERT_CROWD_USER = Query(
    "INSERT INTO users (username, email, password_hash, is_admin) VALUES (:username, NULL, '!', false) RETURNING id"
)
DELETE_USER = Query("DELETE FROM users WHERE id = :id")
SET_CONSENT = Query("UPDATE campaign_workers SET consented_at = coalesce(consented_at, now()) WHERE id = :id")
SET_QUIZ = Query(
    "UPDATE campaign_workers SET quiz_attempts = :attempts, quiz_passed = :passed, screened_out = :screened_out,"
    " finished_at = CASE WHEN :screened_out THEN coalesce(finished_at, now()) ELSE finished_at END WHERE id = :id"
)
SET_FINISHED = Query("UPDATE campaign_workers SET finished_at = coalesce(finished_at, now()) WHERE id = :id")
WORKER_NAMES = Query(
    'SELECT w."user", u.username, w.external_key FROM campaign_workers w JOIN users u ON u.id = w."user"'
    ' WHERE w.campaign = :campaign ORDER BY w."user"'
)


async def worker_by_key(campaign_id: int, key: str) -> WorkerRow | None:
    return cast(WorkerRow | None, await WORKER_BY_KEY.row(campaign=campaign_id, key=key))


async def worker_of_user(user_id: int, *, lock: bool = False) -> WorkerRow | None:
    query = LOCK_WORKER_OF_USER if lock else WORKER_OF_USER
    return cast(WorkerRow | None, await query.row(user=user_id))


async def insert_crowd_user(username: str) -> int:
    return await INSERT_CROWD_USER.value(username=username)


async def delete_user(user_id: int) -> None:
    await DELETE_USER.execute(id=user_id)


async def insert_worker(campaign_id: int, user_id: int, key: str, entry: dict) -> WorkerRow | None:
    row = await INSERT_WORKER.row(campaign=campaign_id, user=user_id, key=key, entry=to_json(entry))
    return cast(WorkerRow | None, row)


async def set_entry(worker_id: int, entry: dict) -> None:
    await SET_ENTRY.execute(id=worker_id, entry=to_json(entry))


async def set_consent(worker_id: int) -> None:
    await SET_CONSENT.execute(id=worker_id)


async def set_quiz(worker_id: int, attempts: int, passed: bool, screened_out: bool) -> None:
    await SET_QUIZ.execute(id=worker_id, attempts=attempts, passed=passed, screened_out=screened_out)


async def set_finished(worker_id: int) -> None:
    await SET_FINISHED.execute(id=worker_id)


async def worker_names(campaign_id: int) -> list[dict[str, Any]]:
    return await WORKER_NAMES.rows(campaign=campaign_id)


# Quota counts (examples and validations of a worker in the campaign's round) ---------------------

WORKER_COUNTS = Query(
    """
    SELECT (SELECT count(*) FROM examples WHERE "user" = :user AND round = :round) AS examples,
           (SELECT count(*) FROM examples WHERE "user" = :user AND round = :round AND created_at >= :day_start
                                            AND created_at < :day_end) AS examples_today,
           (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example
             WHERE v."user" = :user AND e.round = :round) AS validations,
           (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example
             WHERE v."user" = :user AND e.round = :round AND v.created_at >= :day_start
                                    AND v.created_at < :day_end) AS validations_today,
           (SELECT count(*) FROM examples e JOIN campaign_workers w ON w."user" = e."user"
             WHERE w.campaign = :campaign AND e.round = :round) AS campaign_examples
"""
)


async def worker_counts(campaign_id: int, round_id: int, user_id: int, day_start: datetime, day_end: datetime) -> dict:
    row = await WORKER_COUNTS.row(campaign=campaign_id, round=round_id, user=user_id, day_start=day_start, day_end=day_end)
    assert row is not None
    return row


# The owner's progress counts: the workers' stages, and what they wrote and validated in the campaign's round.
PROGRESS = Query(
    """
    WITH c AS (SELECT id, round FROM campaigns WHERE id = :campaign),
         w AS (SELECT cw.* FROM campaign_workers cw JOIN c ON cw.campaign = c.id),
         ex AS (SELECT e.fooled, e.status FROM examples e JOIN w ON w."user" = e."user" JOIN c ON e.round = c.round
                 WHERE NOT e.retracted)
    SELECT (SELECT count(*) FROM w) AS joined,
           (SELECT count(*) FROM w WHERE consented_at IS NOT NULL) AS consented,
           (SELECT count(*) FROM w WHERE quiz_passed) AS quiz_passed,
           (SELECT count(*) FROM w WHERE screened_out) AS quiz_failed,
           (SELECT count(*) FROM w WHERE finished_at IS NOT NULL AND NOT screened_out) AS finished,
           (SELECT count(*) FROM ex) AS examples,
           (SELECT count(*) FROM ex WHERE fooled) AS fooling,
           (SELECT count(*) FROM ex WHERE fooled AND status = 'validated') AS validated_fooling,
           (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example JOIN c ON e.round = c.round
              JOIN w ON w."user" = v."user" WHERE v.mode = 'user') AS validations
"""
)


async def progress(campaign_id: int) -> ProgressRow:
    row = await PROGRESS.row(campaign=campaign_id)
    assert row is not None
    return cast(ProgressRow, row)


# Ledger facts -----------------------------------------------------------------------------------

EXAMPLE_FACTS = Query(
    """
    SELECT e.id, e."user", e.fooled, e.status, e.retracted FROM examples e
      JOIN campaign_workers w ON w."user" = e."user"
     WHERE w.campaign = :campaign AND e.round = :round AND NOT w.screened_out
"""
)
VALIDATION_FACTS = Query(
    """
    SELECT v.id, v."user", v.label, v.mode, e.status AS example_status FROM validations v
      JOIN examples e ON e.id = v.example
      JOIN campaign_workers w ON w."user" = v."user"
     WHERE w.campaign = :campaign AND e.round = :round AND NOT w.screened_out
"""
)
COMPLETED_WORKERS = Query(
    'SELECT "user" FROM campaign_workers WHERE campaign = :campaign AND finished_at IS NOT NULL AND NOT screened_out'
)
LEDGER_LINES = Query("SELECT * FROM campaign_ledger_lines WHERE campaign = :campaign ORDER BY key")
LEDGER_OF_WORKER = Query("SELECT * FROM campaign_ledger_lines WHERE campaign = :campaign AND worker = :worker")
INSERT_LINE = Query(
    """
    INSERT INTO campaign_ledger_lines (campaign, key, worker, kind, amount_cents, reason, status)
    VALUES (:campaign, :key, :worker, :kind, :amount, :reason, 'pending')
    ON CONFLICT (campaign, key) DO NOTHING
"""
)
UPDATE_LINE = Query(
    """
    UPDATE campaign_ledger_lines SET worker = :worker, kind = :kind, amount_cents = :amount, reason = :reason,
           status = 'pending'
     WHERE campaign = :campaign AND key = :key AND status <> 'exported'
"""
)
VOID_LINE = Query(
    "UPDATE campaign_ledger_lines SET status = 'void' WHERE campaign = :campaign AND key = :key AND status = 'pending'"
)
EXPORT_LINES = Query(
    """
    UPDATE campaign_ledger_lines SET status = 'exported', exported_at = now()
     WHERE campaign = :campaign AND key = ANY(:keys::text[]) AND status = 'pending'
"""
)


async def example_facts(campaign_id: int, round_id: int) -> list[dict]:
    return await EXAMPLE_FACTS.rows(campaign=campaign_id, round=round_id)


async def validation_facts(campaign_id: int, round_id: int) -> list[dict]:
    return await VALIDATION_FACTS.rows(campaign=campaign_id, round=round_id)


async def completed_workers(campaign_id: int) -> list[int]:
    return [r["user"] for r in await COMPLETED_WORKERS.records(campaign=campaign_id)]


async def ledger_lines(campaign_id: int) -> list[LedgerLineRow]:
    return cast(list[LedgerLineRow], await LEDGER_LINES.rows(campaign=campaign_id))


async def ledger_of_worker(campaign_id: int, user_id: int) -> list[LedgerLineRow]:
    return cast(list[LedgerLineRow], await LEDGER_OF_WORKER.rows(campaign=campaign_id, worker=user_id))


async def insert_line(campaign_id: int, key: str, worker: int, kind: str, amount: int, reason: str) -> None:
    await INSERT_LINE.execute(campaign=campaign_id, key=key, worker=worker, kind=kind, amount=amount, reason=reason)


async def update_line(campaign_id: int, key: str, worker: int, kind: str, amount: int, reason: str) -> None:
    await UPDATE_LINE.execute(campaign=campaign_id, key=key, worker=worker, kind=kind, amount=amount, reason=reason)


async def void_line(campaign_id: int, key: str) -> None:
    await VOID_LINE.execute(campaign=campaign_id, key=key)


async def export_lines(campaign_id: int, keys: list[str]) -> None:
    await EXPORT_LINES.execute(campaign=campaign_id, keys=keys)


# Approved submissions (the owner's import) -------------------------------------------------------

UPSERT_APPROVED = Query(
    """
    INSERT INTO campaign_approved (campaign, worker, external_id, assignment_id, submission_id)
    VALUES (:campaign, :worker, :external_id, :assignment_id, :submission_id)
    ON CONFLICT (campaign, worker) DO UPDATE
       SET external_id = EXCLUDED.external_id, assignment_id = EXCLUDED.assignment_id,
           submission_id = EXCLUDED.submission_id
"""
)
APPROVED = Query("SELECT * FROM campaign_approved WHERE campaign = :campaign")


async def upsert_approved(
    campaign_id: int, worker: int, external_id: str, assignment_id: str | None, submission_id: str | None
) -> None:
    await UPSERT_APPROVED.execute(
        campaign=campaign_id, worker=worker, external_id=external_id, assignment_id=assignment_id, submission_id=submission_id
    )


async def approved(campaign_id: int) -> list[dict]:
    """Raw platform ids: read only by the payout export and the import (server/campaigns/payouts.py)."""
    return await APPROVED.rows(campaign=campaign_id)
