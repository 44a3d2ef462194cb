"""Attack success of a generative round (docs/design.md §4.3): per target model and per attack category, ASR =
fooled / collected and validated ASR = validated fooled / collected, over the round's examples that are not retracted
— MER and vMER under their red-teaming names."""

from __future__ import annotations

from dataclasses import dataclass

from server.annotation.conversations import queries


@dataclass(frozen=True)
class AttackSuccess:
    grouping: str  # target | category
    key: str
    collected: int
    fooled: int
    validated_fooled: int

    @property
    def asr(self) -> float | None:
        return self.fooled / self.collected if self.collected else None

    @property
    def validated_asr(self) -> float | None:
        return self.validated_fooled / self.collected if self.collected else None


async def attack_success(round_id: int) -> list[AttackSuccess]:
    return [AttackSuccess(**row) for row in await queries.ATTACK_SUCCESS.rows(round=round_id)]
