from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import (
    RoundInfo,
    RoundInfoTargetModels,  # noqa: F401
)


class RoundState(BaseModel):
    node: Optional[
        Annotated[
            Union["RoundStateNodeNode", "RoundStateNodeRound"],
            Field(discriminator="typename__"),
        ]
    ]


class RoundStateNodeNode(BaseModel):
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


class RoundStateNodeRound(RoundInfo):
    typename__: Literal["Round"] = Field(alias="__typename")


RoundState.model_rebuild()
