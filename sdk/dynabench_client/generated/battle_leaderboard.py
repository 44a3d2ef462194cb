from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class BattleLeaderboard(BaseModel):
    battle_leaderboard: "BattleLeaderboardBattleLeaderboard" = Field(alias="battleLeaderboard")


class BattleLeaderboardBattleLeaderboard(BaseModel):
    models: list["BattleLeaderboardBattleLeaderboardModels"]
    win_rate: list[list[Optional[float]]] = Field(alias="winRate")
    votes: int
    ballots: int
    counted_ballots: int = Field(alias="countedBallots")
    flagged_voters: int = Field(alias="flaggedVoters")
    paused_voters: int = Field(alias="pausedVoters")
    repeats: int
    position_bias: list["BattleLeaderboardBattleLeaderboardPositionBias"] = Field(alias="positionBias")


class BattleLeaderboardBattleLeaderboardModels(BaseModel):
    name: str
    rating: float
    lower: float
    upper: float
    rank: int
    stability: float
    top_share: float = Field(alias="topShare")
    battles: int
    wins: int
    losses: int
    ties: int
    both_bad: int = Field(alias="bothBad")


class BattleLeaderboardBattleLeaderboardPositionBias(BaseModel):
    sides: int
    label: str
    share: float
    lower: float
    upper: float
    chance: float


BattleLeaderboard.model_rebuild()
BattleLeaderboardBattleLeaderboard.model_rebuild()
