from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import (  # noqa: F401
    ModelInfo,
    ModelInfoScores,
    ModelInfoStatusLog,
    ModelInfoTask,
)


class ModelState(BaseModel):
    node: Optional[
        Annotated[
            Union["ModelStateNodeNode", "ModelStateNodeModel"],
            Field(discriminator="typename__"),
        ]
    ]


class ModelStateNodeNode(BaseModel):
    typename__: Literal[
        "ApiToken",
        "Context",
        "Dataset",
        "Example",
        "Node",
        "Notification",
        "Round",
        "Task",
        "TrainingRun",
        "User",
    ] = Field(alias="__typename")


class ModelStateNodeModel(ModelInfo):
    typename__: Literal["Model"] = Field(alias="__typename")


ModelState.model_rebuild()
