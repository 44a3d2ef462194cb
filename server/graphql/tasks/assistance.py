"""A round's numbers with and without suggestions (docs/design.md §4.1e), as the Round type shows them."""

from __future__ import annotations

import strawberry


@strawberry.type(description="A round's examples written from a suggestion, or not (docs/design.md §4.1e).")
class AssistanceStatsRow:
    assisted: bool
    collected: int
    fooled: int
    validated_fooled: int
    fooling_rate: float | None = strawberry.field(description="fooled / collected (null before the first example).")
    validated_fooling_rate: float | None = strawberry.field(description="validated fooled / collected.")
    median_ms_to_fool: float | None = strawberry.field(
        description="The median time spent (timeSpentMs) on a fooling example; null when there is none."
    )
    edited: int = strawberry.field(description="Assisted examples whose author changed the suggestion's text.")


async def assistance_rows(round_id: int) -> list[AssistanceStatsRow]:
    from server.annotation.suggestions.stats import round_assistance  # read on demand, as attack success is

    return [
        AssistanceStatsRow(
            assisted=row.assisted,
            collected=row.collected,
            fooled=row.fooled,
            validated_fooled=row.validated_fooled,
            fooling_rate=row.fooling_rate,
            validated_fooling_rate=row.validated_fooling_rate,
            median_ms_to_fool=row.median_ms_to_fool,
            edited=row.edited,
        )
        for row in await round_assistance(round_id)
    ]
