"""Validation outcomes from votes (docs/design.md §4). Pure functions, no I/O.

Votes are replayed in the order they were cast and the first rule that fires decides, so the
outcome of an example never depends on when (or how often) the aggregation job runs:

1. An owner-mode vote decides at once: correct → validated, incorrect → rejected, flagged → flagged.
2. Otherwise the first label to reach N matching user votes decides (N = the task's
   num_matching_validations): correct → validated, incorrect → rejected, flagged → flagged (for
   owner review).
3. No example stays open forever: once 2N − 1 user votes are in without a decision (the most a
   strict majority of a binary vote could need), a label with strictly more votes than each other
   label decides (correct → validated, incorrect → rejected); any tie, or a flag plurality, sends
   the example to the owners as flagged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

OPEN = "open"
OUTCOME_OF_LABEL = {"correct": "validated", "incorrect": "rejected", "flagged": "flagged"}


@dataclass(frozen=True)
class Vote:
    label: str  # correct | incorrect | flagged
    mode: str = "user"  # user | owner


def outcome(votes: Iterable[Vote], num_matching: int) -> str:
    """validated | rejected | flagged | open, from votes in the order they were cast."""
    counts: Counter[str] = Counter()
    user_votes = 0
    for vote in votes:
        if vote.mode == "owner":
            return OUTCOME_OF_LABEL[vote.label]
        counts[vote.label] += 1
        user_votes += 1
        if counts[vote.label] >= num_matching:
            return OUTCOME_OF_LABEL[vote.label]
        if user_votes >= 2 * num_matching - 1:
            return _plurality(counts)
    return OPEN


def _plurality(counts: Counter[str]) -> str:
    correct, incorrect, flagged = counts["correct"], counts["incorrect"], counts["flagged"]
    if correct > incorrect and correct > flagged:
        return "validated"
    if incorrect > correct and incorrect > flagged:
        return "rejected"
    return "flagged"
