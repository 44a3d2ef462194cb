from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Metric
from .fragments import ScoreInfo


class Leaderboard(BaseModel):
    leaderboard: "LeaderboardLeaderboard"


class LeaderboardLeaderboard(BaseModel):
    rows: list["LeaderboardLeaderboardRows"]
    metric_weights: list["LeaderboardLeaderboardMetricWeights"] = Field(alias="metricWeights")
    total_count: int = Field(alias="totalCount")
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


class LeaderboardLeaderboardRows(BaseModel):
    rank: int
    dynascore: float
    model: "LeaderboardLeaderboardRowsModel"
    metrics: "LeaderboardLeaderboardRowsMetrics"
    per_dataset: list["LeaderboardLeaderboardRowsPerDataset"] = Field(alias="perDataset")


class LeaderboardLeaderboardRowsModel(BaseModel):
    id: str
    name: str
    owner: Optional["LeaderboardLeaderboardRowsModelOwner"]


class LeaderboardLeaderboardRowsModelOwner(BaseModel):
    username: str


class LeaderboardLeaderboardRowsMetrics(BaseModel):
    perf: Optional[float]
    throughput: Optional[float]
    memory: Optional[float]
    robustness: Optional[float]
    fairness: Optional[float]


LeaderboardLeaderboardRowsPerDataset = ScoreInfo


class LeaderboardLeaderboardMetricWeights(BaseModel):
    metric: Metric
    weight: float


Leaderboard.model_rebuild()
LeaderboardLeaderboard.model_rebuild()
LeaderboardLeaderboardRows.model_rebuild()
LeaderboardLeaderboardRowsModel.model_rebuild()
