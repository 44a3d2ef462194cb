from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import TrainingRunInfo


class TrainTargetModel(BaseModel):
    train_target_model: Union[
        "TrainTargetModelTrainTargetModelTrainingStarted",
        "TrainTargetModelTrainTargetModelInputError",
        "TrainTargetModelTrainTargetModelNotFoundError",
        "TrainTargetModelTrainTargetModelConflictError",
        "TrainTargetModelTrainTargetModelAuthenticationError",
        "TrainTargetModelTrainTargetModelPermissionError",
    ] = Field(alias="trainTargetModel", discriminator="typename__")


class TrainTargetModelTrainTargetModelTrainingStarted(BaseModel):
    typename__: Literal["TrainingStarted"] = Field(alias="__typename")
    run: "TrainTargetModelTrainTargetModelTrainingStartedRun"


TrainTargetModelTrainTargetModelTrainingStartedRun = TrainingRunInfo


class TrainTargetModelTrainTargetModelInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["TrainTargetModelTrainTargetModelInputErrorFields"]


class TrainTargetModelTrainTargetModelInputErrorFields(BaseModel):
    field: str
    message: str


class TrainTargetModelTrainTargetModelNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class TrainTargetModelTrainTargetModelConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class TrainTargetModelTrainTargetModelAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class TrainTargetModelTrainTargetModelPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


TrainTargetModel.model_rebuild()
TrainTargetModelTrainTargetModelTrainingStarted.model_rebuild()
TrainTargetModelTrainTargetModelInputError.model_rebuild()
