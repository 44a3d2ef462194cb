from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import ModelInfo


class UploadModel(BaseModel):
    upload_model: Union[
        "UploadModelUploadModelModelUploaded",
        "UploadModelUploadModelArchiveRejectedError",
        "UploadModelUploadModelInputError",
        "UploadModelUploadModelRateLimitedError",
        "UploadModelUploadModelNotFoundError",
        "UploadModelUploadModelAuthenticationError",
        "UploadModelUploadModelPermissionError",
        "UploadModelUploadModelServiceUnavailableError",
    ] = Field(alias="uploadModel", discriminator="typename__")


class UploadModelUploadModelModelUploaded(BaseModel):
    typename__: Literal["ModelUploaded"] = Field(alias="__typename")
    model: "UploadModelUploadModelModelUploadedModel"


UploadModelUploadModelModelUploadedModel = ModelInfo


class UploadModelUploadModelArchiveRejectedError(BaseModel):
    typename__: Literal["ArchiveRejectedError"] = Field(alias="__typename")
    typename__: Literal["ArchiveRejectedError"] = Field(alias="__typename")
    code: str
    message: str
    reason: Optional[str]
    entry: Optional[str]


class UploadModelUploadModelInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["UploadModelUploadModelInputErrorFields"]


class UploadModelUploadModelInputErrorFields(BaseModel):
    field: str
    message: str


class UploadModelUploadModelRateLimitedError(BaseModel):
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    code: str
    message: str
    retry_after_seconds: Optional[int] = Field(alias="retryAfterSeconds")


class UploadModelUploadModelNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class UploadModelUploadModelAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class UploadModelUploadModelPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


class UploadModelUploadModelServiceUnavailableError(BaseModel):
    typename__: Literal["ServiceUnavailableError"] = Field(alias="__typename")
    typename__: Literal["ServiceUnavailableError"] = Field(alias="__typename")
    code: str
    message: str


UploadModel.model_rebuild()
UploadModelUploadModelModelUploaded.model_rebuild()
UploadModelUploadModelInputError.model_rebuild()
