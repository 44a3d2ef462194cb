from datetime import datetime
from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .enums import ExportFormat


class ExportRound(BaseModel):
    export_round: Union[
        "ExportRoundExportRoundRoundExport",
        "ExportRoundExportRoundInputError",
        "ExportRoundExportRoundNotFoundError",
        "ExportRoundExportRoundAuthenticationError",
        "ExportRoundExportRoundPermissionError",
    ] = Field(alias="exportRound", discriminator="typename__")


class ExportRoundExportRoundRoundExport(BaseModel):
    typename__: Literal["RoundExport"] = Field(alias="__typename")
    url: str
    format: ExportFormat
    expires_at: datetime = Field(alias="expiresAt")


class ExportRoundExportRoundInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["ExportRoundExportRoundInputErrorFields"]


class ExportRoundExportRoundInputErrorFields(BaseModel):
    field: str
    message: str


class ExportRoundExportRoundNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class ExportRoundExportRoundAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class ExportRoundExportRoundPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


ExportRound.model_rebuild()
ExportRoundExportRoundInputError.model_rebuild()
