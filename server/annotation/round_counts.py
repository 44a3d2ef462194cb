"""What one example adds to its round's counters (pure: no I/O).

A round's totals are not kept on its row: every writer that changes what an example counts for (createExample, a
retraction, a verdict that arrives later, an aggregation) adds the difference to one of a few rows of `round_counts`
(the shard is the writer's connection's, so concurrent writers of one round rarely wait for each other), and reads sum
them. The difference is computed from the example row before and after the change, in the transaction that changes it
(the example row is locked), so a retried or repeated write adds nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

SHARDS = 16  # rows per round: a writer's connection picks one (backend pid modulo this)


@dataclass(frozen=True)
class RoundCounts:
    collected: int = 0
    fooled: int = 0
    validated: int = 0
    validated_fooled: int = 0

    def __sub__(self, other: RoundCounts) -> RoundCounts:
        return RoundCounts(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def as_params(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def contribution(*, retracted: bool, hidden_gold: bool, fooled: bool | None, status: str) -> RoundCounts:
    """What an example in this state counts for in its round: nothing once retracted, nor as uploaded hidden gold
    (served only to check validators); otherwise collected, and fooled / validated as it stands."""
    if retracted or hidden_gold:
        return RoundCounts()
    validated = status == "validated"
    return RoundCounts(
        collected=1, fooled=int(fooled is True), validated=int(validated), validated_fooled=int(validated and fooled is True)
    )
