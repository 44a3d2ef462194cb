from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import (  # noqa: F401
    TrainingRunInfo,
    TrainingRunInfoGate,
    TrainingRunInfoStatusLog,
)


class TrainingRunState(BaseModel):
    node: Optional[
        Annotated[
            Union["TrainingRunStateNodeNode", "TrainingRunStateNodeTrainingRun"],
            Field(discriminator="typename__"),
        ]
    ]


class TrainingRunStateNodeNode(BaseModel):
    typename__: Literal[
        "ApiToken",
        "Context",
        "Dataset",
        "Example",
        "Model",
        "Node",
        "Notification",
        "Round",
        "Task",
        "User",
    ] = Field(alias="__typename")


class TrainingRunStateNodeTrainingRun(TrainingRunInfo):
    typename__: Literal["TrainingRun"] = Field(alias="__typename")


TrainingRunState.model_rebuild()
