from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Metric
from .fragments import ScoreInfo


class Leaderboard(BaseModel):
    leaderboard: "LeaderboardLeaderboard"


class LeaderboardLeaderboard(BaseModel):
    edges: list["LeaderboardLeaderboardEdges"]
    metric_weights: list["LeaderboardLeaderboardMetricWeights"] = Field(alias="metricWeights")
    total_count: int = Field(alias="totalCount")
    page_info: "LeaderboardLeaderboardPageInfo" = Field(alias="pageInfo")


class LeaderboardLeaderboardEdges(BaseModel):
    node: "LeaderboardLeaderboardEdgesNode"


class LeaderboardLeaderboardEdgesNode(BaseModel):
    rank: int
    dynascore: float
    model: "LeaderboardLeaderboardEdgesNodeModel"
    metrics: "LeaderboardLeaderboardEdgesNodeMetrics"
    per_dataset: list["LeaderboardLeaderboardEdgesNodePerDataset"] = Field(alias="perDataset")


class LeaderboardLeaderboardEdgesNodeModel(BaseModel):
    id: str
    name: str
    owner: Optional["LeaderboardLeaderboardEdgesNodeModelOwner"]


class LeaderboardLeaderboardEdgesNodeModelOwner(BaseModel):
    username: str


class LeaderboardLeaderboardEdgesNodeMetrics(BaseModel):
    perf: Optional[float]
    throughput: Optional[float]
    memory: Optional[float]
    robustness: Optional[float]
    fairness: Optional[float]


LeaderboardLeaderboardEdgesNodePerDataset = ScoreInfo


class LeaderboardLeaderboardMetricWeights(BaseModel):
    metric: Metric
    weight: float


class LeaderboardLeaderboardPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


Leaderboard.model_rebuild()
LeaderboardLeaderboard.model_rebuild()
LeaderboardLeaderboardEdges.model_rebuild()
LeaderboardLeaderboardEdgesNode.model_rebuild()
LeaderboardLeaderboardEdgesNodeModel.model_rebuild()
