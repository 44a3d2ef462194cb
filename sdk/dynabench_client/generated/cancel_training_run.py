from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import TrainingRunInfo


class CancelTrainingRun(BaseModel):
    cancel_training_run: Union[
        "CancelTrainingRunCancelTrainingRunTrainingRunCancelled",
        "CancelTrainingRunCancelTrainingRunInputError",
        "CancelTrainingRunCancelTrainingRunNotFoundError",
        "CancelTrainingRunCancelTrainingRunConflictError",
        "CancelTrainingRunCancelTrainingRunAuthenticationError",
        "CancelTrainingRunCancelTrainingRunPermissionError",
    ] = Field(alias="cancelTrainingRun", discriminator="typename__")


class CancelTrainingRunCancelTrainingRunTrainingRunCancelled(BaseModel):
    typename__: Literal["TrainingRunCancelled"] = Field(alias="__typename")
    run: "CancelTrainingRunCancelTrainingRunTrainingRunCancelledRun"


CancelTrainingRunCancelTrainingRunTrainingRunCancelledRun = TrainingRunInfo


class CancelTrainingRunCancelTrainingRunInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["CancelTrainingRunCancelTrainingRunInputErrorFields"]


class CancelTrainingRunCancelTrainingRunInputErrorFields(BaseModel):
    field: str
    message: str


class CancelTrainingRunCancelTrainingRunNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class CancelTrainingRunCancelTrainingRunConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class CancelTrainingRunCancelTrainingRunAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class CancelTrainingRunCancelTrainingRunPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


CancelTrainingRun.model_rebuild()
CancelTrainingRunCancelTrainingRunTrainingRunCancelled.model_rebuild()
CancelTrainingRunCancelTrainingRunInputError.model_rebuild()
