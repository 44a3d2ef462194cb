"""Quotas per worker, per UTC day and per campaign, and the example budget (server/campaigns/quotas.py)."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.campaigns.quotas import Action, Counts, QuotaReason, QuotaRules, Remaining, check, remaining, utc_day, utc_day_bounds
from server.core.errors import ConfigError

RULES = QuotaRules(
    examples_per_day=5, examples_per_campaign=20, validations_per_day=10, validations_per_campaign=30, example_budget=100
)


def test_no_limits_allow_everything_and_nothing_is_ever_done():
    decision = check(QuotaRules(), Counts(examples_today=10**6, examples=10**6), Action.EXAMPLE)
    assert decision.allowed and decision.reason is None
    assert decision.remaining == Remaining(None, None, None, None) and not decision.remaining.done


def test_daily_example_quota_at_the_boundary():
    assert check(RULES, Counts(examples_today=4, examples=4, campaign_examples=4), Action.EXAMPLE).allowed
    decision = check(RULES, Counts(examples_today=5, examples=5, campaign_examples=5), Action.EXAMPLE)
    assert (decision.allowed, decision.reason) == (False, QuotaReason.DAILY_EXAMPLES)
    assert "tomorrow" in decision.message and "UTC" in decision.message
    assert decision.remaining.examples == 0 and decision.remaining.validations == 10


def test_campaign_quota_and_budget_stop_examples_with_their_own_reason():
    counts = Counts(examples_today=0, examples=20, campaign_examples=20)
    assert check(RULES, counts, Action.EXAMPLE).reason is QuotaReason.CAMPAIGN_EXAMPLES
    counts = Counts(examples_today=0, examples=3, campaign_examples=100)
    decision = check(RULES, counts, Action.EXAMPLE)
    assert decision.reason is QuotaReason.BUDGET and "all the examples" in decision.message
    assert check(RULES, counts, Action.VALIDATION).allowed  # the budget is about examples


def test_the_days_limit_is_reported_first_when_several_apply():
    counts = Counts(examples_today=5, examples=20, campaign_examples=100)
    assert check(RULES, counts, Action.EXAMPLE).reason is QuotaReason.DAILY_EXAMPLES


def test_validation_quotas():
    assert check(RULES, Counts(validations_today=9, validations=9), Action.VALIDATION).allowed
    assert check(RULES, Counts(validations_today=10, validations=10), Action.VALIDATION).reason is QuotaReason.DAILY_VALIDATIONS
    assert check(RULES, Counts(validations_today=0, validations=30), Action.VALIDATION).reason is QuotaReason.CAMPAIGN_VALIDATIONS


def test_remaining_is_the_least_of_the_limits_and_never_negative():
    left = remaining(RULES, Counts(examples_today=2, examples=18, validations_today=1, validations=29, campaign_examples=50))
    assert left == Remaining(examples=2, validations=1, examples_today=3, validations_today=9)
    left = remaining(RULES, Counts(examples_today=9, examples=99, campaign_examples=500))  # counts beyond limits (a race)
    assert left.examples == 0 and left.examples_today == 0


def test_done_when_neither_examples_nor_validations_are_left():
    rules = QuotaRules(examples_per_campaign=2, validations_per_campaign=1)
    assert not remaining(rules, Counts(examples=2)).done
    assert remaining(rules, Counts(examples=2, validations=1)).done
    assert remaining(QuotaRules(examples_per_campaign=0, validations_per_campaign=0), Counts()).done


def test_a_zero_limit_allows_nothing():
    assert not check(QuotaRules(validations_per_day=0), Counts(), Action.VALIDATION).allowed


@pytest.mark.parametrize("value", [-1, 1_000_001, 1.5, True, "3"])
def test_bad_limits_are_config_errors(value):
    with pytest.raises(ConfigError) as error:
        QuotaRules(examples_per_day=value)
    assert error.value.field == "quotas.examplesPerDay"


def test_negative_counts_are_a_caller_error():
    with pytest.raises(ValueError):
        Counts(examples=-1)


def test_utc_day_boundaries():
    assert utc_day(datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC)) == date(2026, 3, 1)
    assert utc_day(datetime(2026, 3, 2, 0, 0, tzinfo=UTC)) == date(2026, 3, 2)
    # 20:30 in New York (UTC-5) on March 1 is already March 2 in UTC.
    assert utc_day(datetime(2026, 3, 1, 20, 30, tzinfo=timezone(timedelta(hours=-5)))) == date(2026, 3, 2)
    assert utc_day(datetime(2026, 3, 2, 0, 30, tzinfo=timezone(timedelta(hours=2)))) == date(2026, 3, 1)
    with pytest.raises(ValueError):
        utc_day(datetime(2026, 3, 1, 12, 0))
    start, end = utc_day_bounds(date(2026, 2, 28))
    assert start == datetime(2026, 2, 28, tzinfo=UTC) and end == datetime(2026, 3, 1, tzinfo=UTC)


limits = st.one_of(st.none(), st.integers(0, 50))


@given(limits, limits, limits, st.integers(0, 60), st.integers(0, 60), st.integers(0, 200))
def test_allowed_exactly_when_one_more_fits_every_limit(per_day, per_campaign, budget, today, total, campaign):
    rules = QuotaRules(examples_per_day=per_day, examples_per_campaign=per_campaign, example_budget=budget)
    counts = Counts(examples_today=today, examples=total, campaign_examples=campaign)
    decision = check(rules, counts, Action.EXAMPLE)
    fits = all(
        limit is None or done + 1 <= limit for limit, done in ((per_day, today), (per_campaign, total), (budget, campaign))
    )
    assert decision.allowed == fits
    assert decision.allowed == (decision.remaining.examples is None or decision.remaining.examples > 0)
