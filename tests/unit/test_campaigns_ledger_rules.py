"""The payments ledger: lines from verified outcomes, the bonus cap, and reconciling with recorded lines without
touching exported ones (server/campaigns/ledger_rules.py)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.campaigns.ledger_rules import (
    ExampleFact,
    LedgerLine,
    LineKind,
    LineStatus,
    PayRules,
    ValidationFact,
    WorkerTotals,
    apply,
    campaign_totals,
    compute_lines,
    diff,
    totals,
)
from server.core.errors import ConfigError

RULES = PayRules(base_cents=200, fooling_bonus_cents=50, agree_bonus_cents=5, bonus_cap_cents=120)
AUTHOR, VALIDATOR, OTHER = 1, 2, 3


def amounts(lines):
    return {line.key: line.amount_cents for line in lines}


def test_lines_come_only_from_verified_outcomes():
    examples = [
        ExampleFact(10, AUTHOR, True, "validated"),
        ExampleFact(11, AUTHOR, True, "open"),
        ExampleFact(12, AUTHOR, True, "flagged"),
        ExampleFact(13, AUTHOR, True, "rejected"),
        ExampleFact(14, AUTHOR, False, "validated"),  # validated but did not fool
        ExampleFact(15, AUTHOR, None, "pending"),
        ExampleFact(16, AUTHOR, True, "validated", retracted=True),
    ]
    validations = [
        ValidationFact(100, VALIDATOR, "correct", "validated"),
        ValidationFact(101, VALIDATOR, "incorrect", "rejected"),
        ValidationFact(102, VALIDATOR, "incorrect", "validated"),  # disagrees
        ValidationFact(103, VALIDATOR, "correct", "open"),  # not final yet
        ValidationFact(104, VALIDATOR, "flagged", "flagged"),  # flagged is the owners' review, not a final outcome
        ValidationFact(105, VALIDATOR, "correct", "validated", counted=False),  # paused validator or owner vote
    ]
    lines = compute_lines(RULES, [AUTHOR, VALIDATOR], examples, validations)
    assert amounts(lines) == {
        "base:1": 200,
        "base:2": 200,
        "bonus:fooling:10": 50,
        "bonus:agree:100": 5,
        "bonus:agree:101": 5,
    }
    assert [line.key for line in lines] == sorted(line.key for line in lines)
    assert all(line.status is LineStatus.PENDING for line in lines)
    kinds = {line.key: line.kind for line in lines}
    assert (
        kinds["base:1"] is LineKind.BASE
        and kinds["bonus:fooling:10"] is LineKind.FOOLING
        and kinds["bonus:agree:100"] is LineKind.AGREE
    )


def test_zero_rates_make_no_lines_and_completion_counts_once():
    lines = compute_lines(PayRules(base_cents=100), [1, 1, 2], [ExampleFact(1, 1, True, "validated")], [])
    assert amounts(lines) == {"base:1": 100, "base:2": 100}


def test_bonus_cap_cuts_in_a_fixed_order_and_leaves_base_pay_alone():
    examples = [ExampleFact(i, AUTHOR, True, "validated") for i in (3, 1, 2)]  # 150 of fooling bonuses
    validations = [ValidationFact(9, AUTHOR, "correct", "validated")]
    lines = compute_lines(RULES, [AUTHOR], examples, validations)
    assert amounts(lines) == {"base:1": 200, "bonus:fooling:1": 50, "bonus:fooling:2": 50, "bonus:fooling:3": 20}
    cut = next(line for line in lines if line.key == "bonus:fooling:3")
    assert "cap" in cut.reason
    assert sum(line.amount_cents for line in lines if line.kind is not LineKind.BASE) == 120


def test_the_cap_is_per_worker():
    examples = [ExampleFact(1, AUTHOR, True, "validated"), ExampleFact(2, OTHER, True, "validated")]
    lines = compute_lines(PayRules(fooling_bonus_cents=50, bonus_cap_cents=50), [], examples, [])
    assert amounts(lines) == {"bonus:fooling:1": 50, "bonus:fooling:2": 50}


def test_exported_lines_count_first_against_the_cap():
    # Example 5 was validated, exported and paid; then an older example 1 is validated: it may only fill what is left.
    paid = LedgerLine("bonus:fooling:5", AUTHOR, LineKind.FOOLING, 50, "r", LineStatus.EXPORTED)
    rules = PayRules(fooling_bonus_cents=50, bonus_cap_cents=80)
    examples = [ExampleFact(1, AUTHOR, True, "validated"), ExampleFact(5, AUTHOR, True, "validated")]
    lines = compute_lines(rules, [], examples, [], exported=[paid])
    assert amounts(lines) == {"bonus:fooling:1": 30, "bonus:fooling:5": 50}
    assert next(line for line in lines if line.key == "bonus:fooling:5") == paid


def test_exported_line_no_longer_earned_still_uses_the_cap_and_is_a_discrepancy():
    paid = LedgerLine("bonus:fooling:5", AUTHOR, LineKind.FOOLING, 50, "r", LineStatus.EXPORTED)
    rules = PayRules(fooling_bonus_cents=50, bonus_cap_cents=80)
    examples = [ExampleFact(1, AUTHOR, True, "validated"), ExampleFact(5, AUTHOR, True, "rejected")]
    lines = compute_lines(rules, [], examples, [], exported=[paid])
    assert amounts(lines) == {"bonus:fooling:1": 30}
    change = diff([paid], lines)
    assert [line.key for line in change.insert] == ["bonus:fooling:1"]
    assert not change.update and not change.void
    (d,) = change.discrepancies
    assert (d.key, d.worker, d.recorded_cents, d.computed_cents) == ("bonus:fooling:5", AUTHOR, 50, None)


def test_recomputing_is_idempotent():
    examples = [ExampleFact(1, AUTHOR, True, "validated")]
    validations = [ValidationFact(7, VALIDATOR, "correct", "validated")]
    first = compute_lines(RULES, [AUTHOR], examples, validations)
    recorded = apply([], diff([], first))
    assert recorded == first
    again = diff(recorded, compute_lines(RULES, [AUTHOR], examples, validations))
    assert again.empty and not again.discrepancies


def test_an_outcome_changed_before_payout_voids_the_line_and_a_change_back_revives_it():
    validated = [ExampleFact(1, AUTHOR, True, "validated")]
    recorded = apply([], diff([], compute_lines(RULES, [], validated, [])))
    rejected = [ExampleFact(1, AUTHOR, True, "rejected")]
    change = diff(recorded, compute_lines(RULES, [], rejected, []))
    assert [line.key for line in change.void] == ["bonus:fooling:1"] and not change.insert
    recorded = apply(recorded, change)
    assert recorded[0].status is LineStatus.VOID
    assert totals(recorded) == {}
    assert diff(recorded, compute_lines(RULES, [], rejected, [])).empty  # void stays void
    change = diff(recorded, compute_lines(RULES, [], validated, []))
    assert [(line.key, line.status) for line in change.update] == [("bonus:fooling:1", LineStatus.PENDING)]
    assert apply(recorded, change)[0].status is LineStatus.PENDING


def test_a_changed_amount_updates_a_pending_line():
    recorded = apply([], diff([], compute_lines(RULES, [AUTHOR], [], [])))
    change = diff(recorded, compute_lines(replace(RULES, base_cents=250), [AUTHOR], [], []))
    assert [(line.key, line.amount_cents) for line in change.update] == [("base:1", 250)]


def test_exported_lines_are_never_touched_and_a_different_amount_is_a_discrepancy():
    exported = LedgerLine("base:1", AUTHOR, LineKind.BASE, 200, "Base pay", LineStatus.EXPORTED)
    computed = [LedgerLine("base:1", AUTHOR, LineKind.BASE, 250, "Base pay")]
    change = diff([exported], computed)
    assert change.empty
    (d,) = change.discrepancies
    assert (d.recorded_cents, d.computed_cents) == (200, 250)
    # compute_lines keeps the exported amount while the line is earned, so a rate change reopens nothing.
    lines = compute_lines(replace(RULES, base_cents=250), [AUTHOR], [], [], exported=[exported])
    assert diff([exported], lines).empty and not diff([exported], lines).discrepancies


def test_totals_per_worker_and_campaign():
    lines = [
        LedgerLine("base:1", 1, LineKind.BASE, 200, "", LineStatus.EXPORTED),
        LedgerLine("bonus:fooling:1", 1, LineKind.FOOLING, 50, ""),
        LedgerLine("bonus:fooling:2", 1, LineKind.FOOLING, 50, "", LineStatus.VOID),
        LedgerLine("bonus:agree:1", 2, LineKind.AGREE, 5, ""),
    ]
    assert totals(lines) == {1: WorkerTotals(50, 200), 2: WorkerTotals(5, 0)}
    assert totals(lines)[1].earned_cents == 250
    assert campaign_totals(lines) == WorkerTotals(55, 200)


def test_duplicate_keys_are_caller_errors():
    line = LedgerLine("base:1", 1, LineKind.BASE, 1, "")
    with pytest.raises(ValueError):
        diff([line, line], [])
    with pytest.raises(ValueError):
        compute_lines(RULES, [], [ExampleFact(1, 1, True, "validated")] * 2, [])


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"base_cents": -1}, "pay.basePay"),
        ({"fooling_bonus_cents": 1.5}, "pay.foolingBonus"),
        ({"bonus_cap_cents": 10**9}, "pay.bonusCap"),
        ({"agree_bonus_cents": True}, "pay.agreementBonus"),
    ],
)
def test_bad_pay_rules_are_config_errors(kwargs, field):
    with pytest.raises(ConfigError) as error:
        PayRules(**kwargs)
    assert error.value.field == field


statuses = st.sampled_from(["validated", "rejected", "open", "flagged"])
facts = st.tuples(
    st.lists(st.tuples(st.integers(1, 4), st.sampled_from([True, False, None]), statuses), max_size=12),
    st.lists(
        st.tuples(st.integers(1, 4), st.sampled_from(["correct", "incorrect", "flagged"]), statuses, st.booleans()), max_size=12
    ),
)


def build(raw):
    examples = [ExampleFact(i, author, fooled, status) for i, (author, fooled, status) in enumerate(raw[0])]
    validations = [
        ValidationFact(i, validator, label, status, counted) for i, (validator, label, status, counted) in enumerate(raw[1])
    ]
    return examples, validations


@settings(max_examples=150, deadline=None)
@given(facts, facts, st.sets(st.integers(0, 30)), st.integers(0, 200))
def test_any_sequence_of_changes_and_exports_keeps_the_ledger_consistent(before, after, export_pick, cap):
    """Recompute, record, export some lines, change outcomes, recompute: exported lines never change, every worker's
    bonuses stay within the cap, and recomputing again changes nothing."""
    rules = PayRules(base_cents=100, fooling_bonus_cents=30, agree_bonus_cents=7, bonus_cap_cents=cap)
    examples, validations = build(before)
    recorded = apply([], diff([], compute_lines(rules, [1, 2], examples, validations)))
    recorded = [replace(line, status=LineStatus.EXPORTED) if i in export_pick else line for i, line in enumerate(recorded)]
    exported = [line for line in recorded if line.status is LineStatus.EXPORTED]
    examples, validations = build(after)
    computed = compute_lines(rules, [1, 2], examples, validations, exported=exported)
    change = diff(recorded, computed)
    touched = {line.key for line in (*change.insert, *change.update, *change.void)}
    assert not touched & {line.key for line in exported}
    recorded = apply(recorded, change)
    assert [line for line in recorded if line.status is LineStatus.EXPORTED] == exported
    for worker in (1, 2, 3, 4):
        bonus = sum(
            line.amount_cents
            for line in recorded
            if line.worker == worker and line.kind is not LineKind.BASE and line.status is not LineStatus.VOID
        )
        exported_bonus = sum(line.amount_cents for line in exported if line.worker == worker and line.kind is not LineKind.BASE)
        assert bonus <= max(cap, exported_bonus)
    again = diff(recorded, compute_lines(rules, [1, 2], examples, validations, exported=exported))
    assert again.empty
