from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import BattleChoice, ReplyStatus


class Battle(BaseModel):
    battle: "BattleBattle"


class BattleBattle(BaseModel):
    id: str
    prompt: str
    votable: bool
    vote: Optional["BattleBattleVote"]
    sides: list["BattleBattleSides"]


class BattleBattleVote(BaseModel):
    choice: BattleChoice
    created_at: datetime = Field(alias="createdAt")


class BattleBattleSides(BaseModel):
    label: str
    reply: str
    status: ReplyStatus
    model_name: Optional[str] = Field(alias="modelName")
    model_version: Optional[str] = Field(alias="modelVersion")
    rating: Optional[float]


Battle.model_rebuild()
BattleBattle.model_rebuild()
