"""Campaign quotas: may this worker write one more example, or cast one more validation? Pure, no I/O.

Limits (each optional: `None` is no limit, 0 allows nothing):
- per worker and **UTC day**: examples, validations;
- per worker over the campaign: examples, validations;
- the campaign's **example budget**: examples by all its workers together.

`check(rules, counts, action)` answers for one more `action` given the counts before it, with the first limit that
stops it (in the order above: the day's, then the campaign's, then the budget) and a message for the worker;
`remaining(rules, counts)` is what the PWA shows (the least of the limits that apply, `None` if none does). A worker is
**done** (`Remaining.done`) when neither an example nor a validation is left to them: the PWA then shows the
completion code, as after "Finish".

The day runs from 00:00 to 24:00 UTC, the same for every worker wherever they are (a platform's study runs across time
zones, and a local day would let a worker reset their quota by changing the clock): `utc_day(now)` and
`utc_day_bounds(day)` give the day and its half-open interval for the count query.

This check reads counts taken before the write, so two requests at once could both pass it: the service must enforce
the same limits inside the insert's transaction (a conditional insert, or a row lock on the worker's campaign
membership), and use this module for the answer and the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum

from server.core.errors import ConfigError
from server.core.i18n import tr

MAX_LIMIT = 1_000_000


class Action(StrEnum):
    EXAMPLE = "example"
    VALIDATION = "validation"


class QuotaReason(StrEnum):
    DAILY_EXAMPLES = "daily_examples"
    CAMPAIGN_EXAMPLES = "campaign_examples"
    BUDGET = "budget"
    DAILY_VALIDATIONS = "daily_validations"
    CAMPAIGN_VALIDATIONS = "campaign_validations"


MESSAGES = {
    QuotaReason.DAILY_EXAMPLES: tr("You have written today's maximum of examples for this campaign. Come back tomorrow (UTC)."),
    QuotaReason.CAMPAIGN_EXAMPLES: tr("You have written the most examples this campaign allows per person."),
    QuotaReason.BUDGET: tr("This campaign has collected all the examples it needs."),
    QuotaReason.DAILY_VALIDATIONS: tr(
        "You have done today's maximum of validations for this campaign. Come back tomorrow (UTC)."
    ),
    QuotaReason.CAMPAIGN_VALIDATIONS: tr("You have done the most validations this campaign allows per person."),
}


@dataclass(frozen=True)
class QuotaRules:
    examples_per_day: int | None = None
    examples_per_campaign: int | None = None  # per worker
    validations_per_day: int | None = None
    validations_per_campaign: int | None = None  # per worker
    example_budget: int | None = None  # the campaign's total, all workers

    def __post_init__(self) -> None:
        for name in (
            "examples_per_day",
            "examples_per_campaign",
            "validations_per_day",
            "validations_per_campaign",
            "example_budget",
        ):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LIMIT):
                raise ConfigError(
                    f"quotas.{_camel(name)}", tr("A quota is a whole number from 0 to {limit:,}, or none.", limit=MAX_LIMIT)
                )


@dataclass(frozen=True)
class Counts:
    """What is already done, before the action being checked."""

    examples_today: int = 0  # by this worker in this campaign, this UTC day
    examples: int = 0  # by this worker in this campaign
    validations_today: int = 0
    validations: int = 0
    campaign_examples: int = 0  # by everyone in this campaign

    def __post_init__(self) -> None:
        for name in ("examples_today", "examples", "validations_today", "validations", "campaign_examples"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} is a count, not {getattr(self, name)}")


@dataclass(frozen=True)
class Remaining:
    """How many more of each the worker may do now (`None`: no limit applies)."""

    examples: int | None
    validations: int | None
    examples_today: int | None
    validations_today: int | None

    @property
    def done(self) -> bool:
        return self.examples == 0 and self.validations == 0


@dataclass(frozen=True)
class QuotaDecision:
    allowed: bool
    reason: QuotaReason | None
    message: str
    remaining: Remaining


def remaining(rules: QuotaRules, counts: Counts) -> Remaining:
    examples_today = _left(rules.examples_per_day, counts.examples_today)
    validations_today = _left(rules.validations_per_day, counts.validations_today)
    examples = _least(
        examples_today, _left(rules.examples_per_campaign, counts.examples), _left(rules.example_budget, counts.campaign_examples)
    )
    validations = _least(validations_today, _left(rules.validations_per_campaign, counts.validations))
    return Remaining(examples, validations, examples_today, validations_today)


def check(rules: QuotaRules, counts: Counts, action: Action) -> QuotaDecision:
    """May the worker do one more `action`? With the first limit that stops it."""
    limits: tuple[tuple[QuotaReason, int | None, int], ...]
    if action is Action.EXAMPLE:
        limits = (
            (QuotaReason.DAILY_EXAMPLES, rules.examples_per_day, counts.examples_today),
            (QuotaReason.CAMPAIGN_EXAMPLES, rules.examples_per_campaign, counts.examples),
            (QuotaReason.BUDGET, rules.example_budget, counts.campaign_examples),
        )
    else:
        limits = (
            (QuotaReason.DAILY_VALIDATIONS, rules.validations_per_day, counts.validations_today),
            (QuotaReason.CAMPAIGN_VALIDATIONS, rules.validations_per_campaign, counts.validations),
        )
    left = remaining(rules, counts)
    for reason, limit, done in limits:
        if limit is not None and done >= limit:
            return QuotaDecision(False, reason, MESSAGES[reason], left)
    return QuotaDecision(True, None, "", left)


def utc_day(now: datetime) -> date:
    """The UTC day of an aware datetime (a naive one is refused: its zone is unknown)."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("utc_day needs an aware datetime")
    return now.astimezone(UTC).date()


def utc_day_bounds(day: date) -> tuple[datetime, datetime]:
    """[start, end) of the UTC day, for `created_at >= start AND created_at < end`."""
    start = datetime.combine(day, time.min, tzinfo=UTC)
    return start, start + timedelta(days=1)


def _left(limit: int | None, done: int) -> int | None:
    return None if limit is None else max(0, limit - done)


def _least(*values: int | None) -> int | None:
    present = [v for v in values if v is not None]
    return min(present) if present else None


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)
