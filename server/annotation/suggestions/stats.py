"""A round's numbers with and without suggestions (docs/design.md §4.1e): over its examples that are not retracted,
split by whether the example was written from a suggestion — fooling rate = fooled / collected, validated fooling
rate = validated fooled / collected (MER and vMER of §4.3 on each side), and the median time spent on a fooling example
(the client's `timeSpentMs`: from the context shown to the submission)."""

from __future__ import annotations

from dataclasses import dataclass

from server.annotation.suggestions import queries


@dataclass(frozen=True)
class AssistanceStats:
    assisted: bool
    collected: int = 0
    fooled: int = 0
    validated_fooled: int = 0
    median_ms_to_fool: float | None = None  # over fooling examples with a time spent; null when there is none
    edited: int = 0  # assisted examples whose author changed the suggestion's text

    @property
    def fooling_rate(self) -> float | None:
        return self.fooled / self.collected if self.collected else None

    @property
    def validated_fooling_rate(self) -> float | None:
        return self.validated_fooled / self.collected if self.collected else None


async def round_assistance(round_id: int) -> list[AssistanceStats]:
    """Two rows, unassisted then assisted (zeros when a side has no example)."""
    found = {row["assisted"]: row for row in await queries.round_assistance(round_id)}
    out = []
    for assisted in (False, True):
        row = found.get(assisted)
        if row is None:
            out.append(AssistanceStats(assisted))
            continue
        median = row["median_ms_to_fool"] if row["timed_fooled"] else None
        out.append(
            AssistanceStats(
                assisted,
                row["collected"],
                row["fooled"],
                row["validated_fooled"],
                float(median) if median is not None else None,
                row["edited"],
            )
        )
    return out
