from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Tasks(BaseModel):
    tasks: "TasksTasks"


class TasksTasks(BaseModel):
    edges: list["TasksTasksEdges"]
    page_info: "TasksTasksPageInfo" = Field(alias="pageInfo")


class TasksTasksEdges(BaseModel):
    node: "TasksTasksEdgesNode"


class TasksTasksEdgesNode(BaseModel):
    id: str
    code: str
    name: str
    mer: Optional[float]
    vmer: Optional[float]
    current_round: Optional["TasksTasksEdgesNodeCurrentRound"] = Field(alias="currentRound")


class TasksTasksEdgesNodeCurrentRound(BaseModel):
    id: str
    number: int


class TasksTasksPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


Tasks.model_rebuild()
TasksTasks.model_rebuild()
TasksTasksEdges.model_rebuild()
TasksTasksEdgesNode.model_rebuild()
