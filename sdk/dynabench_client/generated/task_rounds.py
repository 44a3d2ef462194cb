from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .fragments import RoundInfo


class TaskRounds(BaseModel):
    task: Optional["TaskRoundsTask"]


class TaskRoundsTask(BaseModel):
    rounds: "TaskRoundsTaskRounds"


class TaskRoundsTaskRounds(BaseModel):
    edges: list["TaskRoundsTaskRoundsEdges"]
    page_info: "TaskRoundsTaskRoundsPageInfo" = Field(alias="pageInfo")


class TaskRoundsTaskRoundsEdges(BaseModel):
    node: "TaskRoundsTaskRoundsEdgesNode"


TaskRoundsTaskRoundsEdgesNode = RoundInfo


class TaskRoundsTaskRoundsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


TaskRounds.model_rebuild()
TaskRoundsTask.model_rebuild()
TaskRoundsTaskRounds.model_rebuild()
TaskRoundsTaskRoundsEdges.model_rebuild()
