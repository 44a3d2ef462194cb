"""Typed rows and status values of crowd campaigns."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict


class CampaignStatus(StrEnum):
    DRAFT = "draft"
    OPEN = "open"
    CLOSED = "closed"


class WorkerStage(StrEnum):
    """Where a worker is in the join flow (the PWA shows the matching screen)."""

    CONSENT = "consent"
    QUIZ = "quiz"
    WORK = "work"
    DONE = "done"  # finished (or reached the quota and pressed Finish): the completion code
    SCREENED_OUT = "screened_out"  # failed the quiz for good: the screened-out code


class CampaignRow(TypedDict):
    id: int
    task: int
    round: int
    platform: str  # server.campaigns.entry.Platform values
    title: str
    status: str
    code: str
    consent_md: str
    instructions_md: str
    quiz: Any  # {"questions": [{"id", "prompt", "choices", "answer"}], "pass_mark", "attempts"} or None
    quotas: Any  # server.campaigns.quotas.QuotaRules fields
    currency: str
    base_cents: int
    fooling_bonus_cents: int
    agree_bonus_cents: int
    bonus_cap_cents: int | None
    completion_code: str
    failure_code: str
    completion_redirect: str | None
    created_by: int
    created_at: datetime


class WorkerRow(TypedDict):
    id: int
    campaign: int
    user: int
    external_key: str  # HMAC of the platform's worker id (server.campaigns.entry.external_id_key), never the id
    entry: Any  # assignment / HIT / study / session ids and turkSubmitTo of the latest join (no worker id)
    consented_at: datetime | None
    quiz_attempts: int
    quiz_passed: bool
    screened_out: bool
    finished_at: datetime | None
    created_at: datetime


class LedgerLineRow(TypedDict):
    id: int
    campaign: int
    key: str
    worker: int  # the user id
    kind: str
    amount_cents: int
    reason: str
    status: str
    exported_at: datetime | None


class ProgressRow(TypedDict):
    """The owner's progress counts of a campaign (server/campaigns/queries.py PROGRESS)."""

    joined: int
    consented: int
    quiz_passed: int
    quiz_failed: int  # failed for good (screened out)
    finished: int  # given the completion code (not the screened-out one)
    examples: int  # not retracted, in the campaign's round, by its workers
    fooling: int
    validated_fooling: int
    validations: int  # user-mode votes (gold answers are not votes) in the round by its workers
