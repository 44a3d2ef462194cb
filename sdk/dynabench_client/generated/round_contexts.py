from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class RoundContexts(BaseModel):
    node: Optional[
        Annotated[
            Union["RoundContextsNodeNode", "RoundContextsNodeRound"],
            Field(discriminator="typename__"),
        ]
    ]


class RoundContextsNodeNode(BaseModel):
    typename__: Literal[
        "ApiToken",
        "Context",
        "Dataset",
        "Example",
        "Model",
        "Node",
        "Notification",
        "Task",
        "TrainingRun",
        "User",
    ] = Field(alias="__typename")


class RoundContextsNodeRound(BaseModel):
    typename__: Literal["Round"] = Field(alias="__typename")
    contexts: "RoundContextsNodeRoundContexts"


class RoundContextsNodeRoundContexts(BaseModel):
    edges: list["RoundContextsNodeRoundContextsEdges"]
    page_info: "RoundContextsNodeRoundContextsPageInfo" = Field(alias="pageInfo")


class RoundContextsNodeRoundContextsEdges(BaseModel):
    node: "RoundContextsNodeRoundContextsEdgesNode"


class RoundContextsNodeRoundContextsEdgesNode(BaseModel):
    id: str
    fields: Any
    tag: Optional[str]
    total_used: int = Field(alias="totalUsed")
    total_fooled: int = Field(alias="totalFooled")


class RoundContextsNodeRoundContextsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


RoundContexts.model_rebuild()
RoundContextsNodeRound.model_rebuild()
RoundContextsNodeRoundContexts.model_rebuild()
RoundContextsNodeRoundContextsEdges.model_rebuild()
