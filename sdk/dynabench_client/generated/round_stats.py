from pydantic import Field

from .base_model import BaseModel
from .fragments import RoundInfo


class RoundStats(BaseModel):
    round_stats: "RoundStatsRoundStats" = Field(alias="roundStats")


RoundStatsRoundStats = RoundInfo
RoundStats.model_rebuild()
