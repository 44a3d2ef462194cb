"""Campaigns: creating, updating and reading them (owners), the public join page's view, and the crowd rules
(quiz, quotas, pay) built from a stored row. Who may do what is in server/permissions/campaigns.py."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

from server.campaigns import entry as crowd_entry
from server.campaigns import queries
from server.campaigns.ledger_rules import PayRules
from server.campaigns.quiz import MAX_ANSWER_LENGTH, Quiz, quiz_from_config
from server.campaigns.quotas import QuotaRules
from server.campaigns.records import CampaignRow, CampaignStatus, ProgressRow
from server.campaigns.text import MAX_MARKDOWN
from server.core import db
from server.core.errors import ConfigError, FieldProblem, ServiceError, invalid, not_found
from server.core.i18n import tr
from server.core.settings import Settings
from server.core.storable import text_problem

TITLE_MAX = 200
PROMPT_MAX = 2000
CHOICES_MAX = 20
CODE_SHAPE = re.compile(r"[A-Za-z0-9_-]{8,32}")
CURRENCY = re.compile(r"[A-Z]{3}")
QUOTA_FIELDS = ("examples_per_day", "examples_per_campaign", "validations_per_day", "validations_per_campaign", "example_budget")
EDITABLE = (
    "round_number", "platform", "title", "status", "consent", "instructions", "quiz", "quotas", "currency", "base_cents",
    "fooling_bonus_cents", "agree_bonus_cents", "bonus_cap_cents", "completion_code", "failure_code", "completion_redirect",
)  # fmt: skip


def id_secret(settings: Settings) -> bytes:
    """The key of the external ids' HMAC: CROWD_ID_SECRET, else one derived from JWT_SECRET (never the JWT key itself)."""
    if settings.crowd_id_secret:
        return settings.crowd_id_secret.encode()
    return hmac.new(settings.jwt_secret.encode(), b"dynabench crowd external ids", hashlib.sha256).digest()


def quiz_of(row: Mapping[str, Any]) -> Quiz | None:
    quiz = row["quiz"]
    return quiz_from_config(quiz["questions"], quiz["pass_mark"], quiz["attempts"]) if quiz else None


def quota_rules(row: Mapping[str, Any]) -> QuotaRules:
    return QuotaRules(**{name: row["quotas"].get(name) for name in QUOTA_FIELDS})


def pay_rules(row: Mapping[str, Any]) -> PayRules:
    return PayRules(row["base_cents"], row["fooling_bonus_cents"], row["agree_bonus_cents"], row["bonus_cap_cents"])


async def get_campaign(campaign_id: int) -> CampaignRow:
    row = await queries.campaign_by_id(campaign_id)
    if row is None:
        raise not_found(tr("That campaign"))
    return row


async def campaign_by_code(code: str) -> CampaignRow | None:
    """An open campaign by its join code (None for an unknown, draft or malformed code: they look alike)."""
    if not isinstance(code, str) or not CODE_SHAPE.fullmatch(code):
        return None
    row = await queries.campaign_by_code(code)
    return row if row is not None and row["status"] != CampaignStatus.DRAFT else None


async def campaigns_of_task(task_id: int, first: int) -> list[CampaignRow]:
    return await queries.campaigns_of_task(task_id, max(1, min(first, 100)))


async def progress(campaign_id: int) -> ProgressRow:
    """The owner's progress counts (workers by stage, their examples and validations in the round)."""
    return await queries.progress(campaign_id)


async def create_campaign(task: Mapping[str, Any], user_id: int, spec: Mapping[str, Any]) -> CampaignRow:
    values = await _checked(task, {"round_number": task["current_round"], "status": CampaignStatus.DRAFT, **spec})
    values.update(task=task["id"], code=secrets.token_urlsafe(18)[:24], created_by=user_id)
    return await queries.insert_campaign(values)


async def update_campaign(task: Mapping[str, Any], campaign_id: int, changes: Mapping[str, Any]) -> CampaignRow:
    async with db.transaction():
        row = await queries.lock_campaign(campaign_id)
        if row is None or row["task"] != task["id"]:
            raise not_found(tr("That campaign"))
        current = _as_spec(row, await _round_number(row))
        values = await _checked(task, {**current, **changes})
        return await queries.update_campaign(campaign_id, values)


async def _round_number(row: Mapping[str, Any]) -> int:
    from server.tasks.service import get_round

    return (await get_round(row["round"]))["number"]


def _as_spec(row: Mapping[str, Any], round_number: int) -> dict[str, Any]:
    quiz = row["quiz"]
    return {
        "round_number": round_number,
        "platform": row["platform"],
        "title": row["title"],
        "status": row["status"],
        "consent": row["consent_md"],
        "instructions": row["instructions_md"],
        "quiz": quiz,
        "quotas": row["quotas"],
        "currency": row["currency"],
        "base_cents": row["base_cents"],
        "fooling_bonus_cents": row["fooling_bonus_cents"],
        "agree_bonus_cents": row["agree_bonus_cents"],
        "bonus_cap_cents": row["bonus_cap_cents"],
        "completion_code": row["completion_code"],
        "failure_code": row["failure_code"],
        "completion_redirect": row["completion_redirect"],
    }


async def _checked(task: Mapping[str, Any], spec: Mapping[str, Any]) -> dict[str, Any]:
    """Every field checked; all problems reported at once (INVALID_INPUT), nothing written."""
    problems: list[FieldProblem] = []

    def problem(name: str, message: str) -> None:
        problems.append(FieldProblem(name, message))

    title = str(spec.get("title") or "").strip()
    if not 1 <= len(title) <= TITLE_MAX or text_problem(title):
        problem("title", tr("1 to {limit} characters of text", limit=TITLE_MAX))
    platform = spec.get("platform")
    if platform not in tuple(crowd_entry.Platform):
        problem("platform", tr("PROLIFIC, MTURK or OPEN"))
    status = spec.get("status")
    if status not in tuple(CampaignStatus):
        problem("status", tr("DRAFT, OPEN or CLOSED"))
    for name, field in (("consent", "consent"), ("instructions", "instructions")):
        text = spec.get(name) or ""
        if len(text) > MAX_MARKDOWN or text_problem(text):
            problem(field, tr("at most {limit} characters of text", limit=MAX_MARKDOWN))
    if status == CampaignStatus.OPEN and not (spec.get("consent") or "").strip():
        problem("consent", tr("an open campaign needs a consent text"))
    round_id = None
    number = spec.get("round_number")
    if not isinstance(number, int) or not 0 < number < 2**31:
        problem("roundNumber", tr("a round number of the task"))
    else:
        round_id = await queries.round_of_task(task["id"], number)
        if round_id is None:
            problem("roundNumber", tr("the task has no round {number}", number=number))
    quiz = _checked_quiz(spec.get("quiz"), problem)
    quotas = {name: (spec.get("quotas") or {}).get(name) for name in QUOTA_FIELDS}
    currency = spec.get("currency") or "USD"
    if not CURRENCY.fullmatch(currency):
        problem("currency", tr("a three-letter ISO 4217 code such as USD or GBP"))
    for rule in (
        lambda: QuotaRules(**quotas),
        lambda: PayRules(
            spec.get("base_cents", 0),
            spec.get("fooling_bonus_cents", 0),
            spec.get("agree_bonus_cents", 0),
            spec.get("bonus_cap_cents"),
        ),
        lambda: crowd_entry.check_completion_code(spec.get("completion_code") or ""),
    ):
        try:
            rule()
        except ConfigError as error:
            problem(error.field, error.message)
    try:
        crowd_entry.check_completion_code(spec.get("failure_code") or "")
    except ConfigError:
        problem("failureCode", tr("1 to 64 letters, digits, '_' or '-'"))
    if spec.get("failure_code") and spec.get("failure_code") == spec.get("completion_code"):
        problem("failureCode", tr("must differ from the completion code"))
    redirect = spec.get("completion_redirect") or None
    if redirect is not None:
        try:
            crowd_entry.check_redirect(redirect)
        except ConfigError as error:
            problem(error.field, error.message)
    if problems:
        raise invalid(tr("The campaign is not valid."), *problems)
    return {
        "round": round_id,
        "platform": platform,
        "title": title,
        "status": status,
        "consent_md": spec.get("consent") or "",
        "instructions_md": spec.get("instructions") or "",
        "quiz": quiz,
        "quotas": quotas,
        "currency": currency,
        "base_cents": spec.get("base_cents", 0),
        "fooling_bonus_cents": spec.get("fooling_bonus_cents", 0),
        "agree_bonus_cents": spec.get("agree_bonus_cents", 0),
        "bonus_cap_cents": spec.get("bonus_cap_cents"),
        "completion_code": spec.get("completion_code"),
        "failure_code": spec.get("failure_code"),
        "completion_redirect": redirect,
    }


def _checked_quiz(quiz: Any, problem: Any) -> dict[str, Any] | None:
    if not quiz:
        return None
    questions = []
    for i, raw in enumerate(quiz.get("questions") or []):
        prompt, choices, answer = raw.get("prompt") or "", list(raw.get("choices") or []), raw.get("answer") or ""
        if not 1 <= len(prompt) <= PROMPT_MAX or text_problem(prompt):
            problem(f"quiz.questions.{i}.prompt", tr("1 to {limit} characters of text", limit=PROMPT_MAX))
        if len(choices) > CHOICES_MAX or any(not 1 <= len(c) <= 200 or text_problem(c) for c in choices):
            problem(f"quiz.questions.{i}.choices", tr("at most {limit} choices of 1 to 200 characters", limit=CHOICES_MAX))
        if not 1 <= len(answer) <= MAX_ANSWER_LENGTH or text_problem(answer):
            problem(f"quiz.questions.{i}.answer", tr("the right answer, as text"))
        elif choices and answer not in choices:
            problem(f"quiz.questions.{i}.answer", tr("must be one of the choices"))
        questions.append({"id": f"q{i + 1}", "prompt": prompt, "choices": choices, "answer": answer})
    stored = {"questions": questions, "pass_mark": quiz.get("pass_mark"), "attempts": quiz.get("attempts", 1)}
    try:
        quiz_from_config(questions, stored["pass_mark"], stored["attempts"])
    except ConfigError as error:
        problem(error.field, error.message)
    except (TypeError, ValueError):
        problem("quiz", tr("questions, a pass mark and attempts"))
    return stored


def require(condition: bool, message: str, code: str = "CONFLICT") -> None:
    if not condition:
        raise ServiceError(code, message)
