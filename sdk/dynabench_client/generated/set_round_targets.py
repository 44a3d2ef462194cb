from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import RoundInfo


class SetRoundTargets(BaseModel):
    set_round_targets: Union[
        "SetRoundTargetsSetRoundTargetsRoundTargetsSet",
        "SetRoundTargetsSetRoundTargetsInputError",
        "SetRoundTargetsSetRoundTargetsNotFoundError",
        "SetRoundTargetsSetRoundTargetsConflictError",
        "SetRoundTargetsSetRoundTargetsAuthenticationError",
        "SetRoundTargetsSetRoundTargetsPermissionError",
    ] = Field(alias="setRoundTargets", discriminator="typename__")


class SetRoundTargetsSetRoundTargetsRoundTargetsSet(BaseModel):
    typename__: Literal["RoundTargetsSet"] = Field(alias="__typename")
    round: "SetRoundTargetsSetRoundTargetsRoundTargetsSetRound"


SetRoundTargetsSetRoundTargetsRoundTargetsSetRound = RoundInfo


class SetRoundTargetsSetRoundTargetsInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["SetRoundTargetsSetRoundTargetsInputErrorFields"]


class SetRoundTargetsSetRoundTargetsInputErrorFields(BaseModel):
    field: str
    message: str


class SetRoundTargetsSetRoundTargetsNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class SetRoundTargetsSetRoundTargetsConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class SetRoundTargetsSetRoundTargetsAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class SetRoundTargetsSetRoundTargetsPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


SetRoundTargets.model_rebuild()
SetRoundTargetsSetRoundTargetsRoundTargetsSet.model_rebuild()
SetRoundTargetsSetRoundTargetsInputError.model_rebuild()
