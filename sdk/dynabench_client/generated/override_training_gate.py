from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import TrainingRunInfo


class OverrideTrainingGate(BaseModel):
    override_training_gate: Union[
        "OverrideTrainingGateOverrideTrainingGateTrainingGateOverridden",
        "OverrideTrainingGateOverrideTrainingGateInputError",
        "OverrideTrainingGateOverrideTrainingGateNotFoundError",
        "OverrideTrainingGateOverrideTrainingGateConflictError",
        "OverrideTrainingGateOverrideTrainingGateAuthenticationError",
        "OverrideTrainingGateOverrideTrainingGatePermissionError",
    ] = Field(alias="overrideTrainingGate", discriminator="typename__")


class OverrideTrainingGateOverrideTrainingGateTrainingGateOverridden(BaseModel):
    typename__: Literal["TrainingGateOverridden"] = Field(alias="__typename")
    run: "OverrideTrainingGateOverrideTrainingGateTrainingGateOverriddenRun"


OverrideTrainingGateOverrideTrainingGateTrainingGateOverriddenRun = TrainingRunInfo


class OverrideTrainingGateOverrideTrainingGateInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["OverrideTrainingGateOverrideTrainingGateInputErrorFields"]


class OverrideTrainingGateOverrideTrainingGateInputErrorFields(BaseModel):
    field: str
    message: str


class OverrideTrainingGateOverrideTrainingGateNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class OverrideTrainingGateOverrideTrainingGateConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class OverrideTrainingGateOverrideTrainingGateAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class OverrideTrainingGateOverrideTrainingGatePermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


OverrideTrainingGate.model_rebuild()
OverrideTrainingGateOverrideTrainingGateTrainingGateOverridden.model_rebuild()
OverrideTrainingGateOverrideTrainingGateInputError.model_rebuild()
