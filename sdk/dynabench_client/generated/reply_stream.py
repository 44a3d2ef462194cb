from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ReplyStatus


class ReplyStream(BaseModel):
    reply_stream: "ReplyStreamReplyStream" = Field(alias="replyStream")


class ReplyStreamReplyStream(BaseModel):
    turn_id: str = Field(alias="turnId")
    text: str
    done: bool
    status: ReplyStatus
    error: str
    judge_score: Optional[float] = Field(alias="judgeScore")


ReplyStream.model_rebuild()
