"""The payments ledger of a campaign: lines computed from verified outcomes, and how to reconcile them with the lines
already recorded. Pure, no I/O. Money is integer cents (minor units of the campaign's currency), never floats.
Imports of the platforms' approved submissions and the bonus CSVs are in `server.campaigns.payouts`.

**Lines** (`compute_lines`), each with a key unique in the campaign, so recomputing is idempotent:

| key | amount | when |
|---|---|---|
| `base:<worker>` | `base_cents` | the worker completed the campaign (reached the completion code) |
| `bonus:fooling:<example id>` | `fooling_bonus_cents` | the example fooled the model (`fooled` true), is `validated` and not retracted |
| `bonus:agree:<validation id>` | `agree_bonus_cents` | a counted vote (user mode, validator not paused) on an example whose outcome is final and agrees with it: `correct` on `validated`, `incorrect` on `rejected` |

Only final outcomes count: an example that is open, flagged (awaiting the owners), pending or closed earns nothing
yet. A zero rate produces no lines. **Cap**: a worker's bonuses (not the base pay) add up to at most
`bonus_cap_cents`. Lines already exported count first, at their recorded amounts (that money is paid), then the
others in a fixed order (fooling bonuses by example id, then agreement bonuses by validation id), each cut to what is
left of the cap; a line cut to zero is not produced.

**Reconciling** (`diff(recorded, computed)`): a recorded line is `pending`, `void` or `exported` (frozen: it left in
a payout file). New keys are inserted; a pending line whose amount changed is updated; a pending line that is no
longer earned (its outcome changed before payout) is voided; a void line earned again is revived. An exported line
is never touched: when the recomputation no longer earns it, or earns a different amount, that is a `Discrepancy` for
the owner. `compute_lines` keeps an exported line as it was recorded while it is still earned (a later change of the
campaign's rates does not reopen paid lines).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from server.annotation.aggregation import OUTCOME_OF_LABEL
from server.core.errors import ConfigError
from server.core.i18n import tr

MAX_CENTS = 100_000_00  # 100,000.00 per rate or cap: a typo, not a bonus, beyond that
FINAL_OUTCOMES = frozenset({"validated", "rejected"})


class LineKind(StrEnum):
    BASE = "base"
    FOOLING = "bonus_fooling"
    AGREE = "bonus_agree"


class LineStatus(StrEnum):
    PENDING = "pending"  # earned, not yet exported
    VOID = "void"  # was earned, no longer is (kept for the record)
    EXPORTED = "exported"  # frozen: in a payout file


@dataclass(frozen=True)
class PayRules:
    base_cents: int = 0
    fooling_bonus_cents: int = 0
    agree_bonus_cents: int = 0
    bonus_cap_cents: int | None = None  # per worker, bonuses only; None: no cap

    def __post_init__(self) -> None:
        for name, field in (
            ("base_cents", "basePay"),
            ("fooling_bonus_cents", "foolingBonus"),
            ("agree_bonus_cents", "agreementBonus"),
            ("bonus_cap_cents", "bonusCap"),
        ):
            value = getattr(self, name)
            if value is None and name == "bonus_cap_cents":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CENTS:
                raise ConfigError(f"pay.{field}", tr("An amount is a whole number of cents from 0 to {limit}.", limit=MAX_CENTS))


@dataclass(frozen=True)
class ExampleFact:
    example_id: int
    author: int
    fooled: bool | None
    status: str  # the example's status (server.annotation.records.ExampleStatus values)
    retracted: bool = False


@dataclass(frozen=True)
class ValidationFact:
    validation_id: int
    validator: int
    label: str  # correct | incorrect | flagged
    example_status: str  # the example's current status
    counted: bool = True  # False for owner-mode votes and votes of a paused validator


@dataclass(frozen=True)
class LedgerLine:
    key: str
    worker: int
    kind: LineKind
    amount_cents: int
    reason: str
    status: LineStatus = LineStatus.PENDING


@dataclass(frozen=True)
class Discrepancy:
    key: str
    worker: int
    recorded_cents: int
    computed_cents: int | None  # None: no longer earned at all
    message: str


@dataclass(frozen=True)
class LedgerDiff:
    insert: tuple[LedgerLine, ...]
    update: tuple[LedgerLine, ...]  # the new values, status pending
    void: tuple[LedgerLine, ...]  # the recorded lines to void
    discrepancies: tuple[Discrepancy, ...]

    @property
    def empty(self) -> bool:
        return not (self.insert or self.update or self.void)


@dataclass(frozen=True)
class WorkerTotals:
    pending_cents: int = 0
    exported_cents: int = 0

    @property
    def earned_cents(self) -> int:
        return self.pending_cents + self.exported_cents


def base_key(worker: int) -> str:
    return f"base:{worker}"


def fooling_key(example_id: int) -> str:
    return f"bonus:fooling:{example_id}"


def agree_key(validation_id: int) -> str:
    return f"bonus:agree:{validation_id}"


def earns_fooling_bonus(example: ExampleFact) -> bool:
    return example.fooled is True and example.status == "validated" and not example.retracted


def earns_agree_bonus(validation: ValidationFact) -> bool:
    return (
        validation.counted
        and validation.example_status in FINAL_OUTCOMES
        and OUTCOME_OF_LABEL.get(validation.label) == validation.example_status
    )


def compute_lines(
    rules: PayRules,
    completed: Iterable[int],
    examples: Iterable[ExampleFact],
    validations: Iterable[ValidationFact],
    exported: Iterable[LedgerLine] = (),
) -> list[LedgerLine]:
    """Every line the campaign owes now, sorted by key; `exported` are the recorded exported lines."""
    frozen = {line.key: line for line in exported}
    earned: list[LedgerLine] = []
    if rules.base_cents:
        earned += [LedgerLine(base_key(w), w, LineKind.BASE, rules.base_cents, "Base pay") for w in sorted(set(completed))]
    if rules.fooling_bonus_cents:
        earned += [
            LedgerLine(
                fooling_key(e.example_id),
                e.author,
                LineKind.FOOLING,
                rules.fooling_bonus_cents,
                f"Bonus: example {e.example_id} fooled the model and was validated",
            )
            for e in sorted(examples, key=lambda e: e.example_id)
            if earns_fooling_bonus(e)
        ]
    if rules.agree_bonus_cents:
        earned += [
            LedgerLine(
                agree_key(v.validation_id),
                v.validator,
                LineKind.AGREE,
                rules.agree_bonus_cents,
                f"Bonus: validation {v.validation_id} agreed with the final outcome",
            )
            for v in sorted(validations, key=lambda v: v.validation_id)
            if earns_agree_bonus(v)
        ]
    earned_keys = {line.key for line in earned}
    if len(earned_keys) != len(earned):
        raise ValueError("two facts produce the same ledger key (an example or validation given twice)")

    used: dict[int, int] = defaultdict(int)  # bonus cents already exported, per worker: counted against the cap first
    for line in frozen.values():
        if line.kind is not LineKind.BASE:
            used[line.worker] += line.amount_cents
    lines: list[LedgerLine] = []
    for line in earned:  # base, then fooling by example id, then agreement by validation id
        if line.key in frozen:
            lines.append(frozen[line.key])
            continue
        amount = line.amount_cents
        if line.kind is not LineKind.BASE and rules.bonus_cap_cents is not None:
            amount = max(0, min(amount, rules.bonus_cap_cents - used[line.worker]))
            used[line.worker] += amount
            if amount < line.amount_cents and amount:
                line = replace(line, reason=f"{line.reason} (cut to the bonus cap)")
        if amount:
            lines.append(replace(line, amount_cents=amount))
    return sorted(lines, key=lambda line: line.key)


def diff(recorded: Iterable[LedgerLine], computed: Iterable[LedgerLine]) -> LedgerDiff:
    """What to write so the recorded lines match the computed ones, never touching exported lines."""
    old = _by_key(recorded, "recorded")
    new = _by_key(computed, "computed")
    insert: list[LedgerLine] = []
    update: list[LedgerLine] = []
    void: list[LedgerLine] = []
    discrepancies: list[Discrepancy] = []
    for key in sorted(old.keys() | new.keys()):
        before, after = old.get(key), new.get(key)
        if before is None:
            assert after is not None
            insert.append(replace(after, status=LineStatus.PENDING))
        elif before.status is LineStatus.EXPORTED:
            if after is None:
                discrepancies.append(
                    Discrepancy(
                        key,
                        before.worker,
                        before.amount_cents,
                        None,
                        "Paid, but no longer earned: the outcome changed after export.",
                    )
                )
            elif (after.worker, after.amount_cents) != (before.worker, before.amount_cents):
                discrepancies.append(
                    Discrepancy(
                        key, before.worker, before.amount_cents, after.amount_cents, "Paid a different amount than is now earned."
                    )
                )
        elif after is None:
            if before.status is LineStatus.PENDING:
                void.append(before)
        elif before.status is LineStatus.VOID or _differs(before, after):
            update.append(replace(after, status=LineStatus.PENDING))
    return LedgerDiff(tuple(insert), tuple(update), tuple(void), tuple(discrepancies))


def apply(recorded: Iterable[LedgerLine], change: LedgerDiff) -> list[LedgerLine]:
    """The recorded lines after `change` (what the service's writes produce), sorted by key: for tests and previews."""
    lines = _by_key(recorded, "recorded")
    for line in (*change.insert, *change.update):
        lines[line.key] = line
    for line in change.void:
        lines[line.key] = replace(line, status=LineStatus.VOID)
    return sorted(lines.values(), key=lambda line: line.key)


def totals(lines: Iterable[LedgerLine]) -> dict[int, WorkerTotals]:
    """Pending and exported cents per worker (void lines count for nothing)."""
    pending: dict[int, int] = defaultdict(int)
    exported: dict[int, int] = defaultdict(int)
    for line in lines:
        if line.status is LineStatus.PENDING:
            pending[line.worker] += line.amount_cents
        elif line.status is LineStatus.EXPORTED:
            exported[line.worker] += line.amount_cents
    return {w: WorkerTotals(pending.get(w, 0), exported.get(w, 0)) for w in sorted(pending.keys() | exported.keys())}


def campaign_totals(lines: Iterable[LedgerLine]) -> WorkerTotals:
    per_worker = totals(lines).values()
    return WorkerTotals(sum(t.pending_cents for t in per_worker), sum(t.exported_cents for t in per_worker))


def _by_key(lines: Iterable[LedgerLine], which: str) -> dict[str, LedgerLine]:
    out: dict[str, LedgerLine] = {}
    for line in lines:
        if line.key in out:
            raise ValueError(f"the {which} lines have the key {line.key!r} twice")
        out[line.key] = line
    return out


def _differs(before: LedgerLine, after: LedgerLine) -> bool:
    return (before.worker, before.kind, before.amount_cents, before.reason) != (
        after.worker,
        after.kind,
        after.amount_cents,
        after.reason,
    )
