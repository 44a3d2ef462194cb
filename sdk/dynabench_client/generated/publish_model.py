from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import ModelInfo


class PublishModel(BaseModel):
    publish_model: Union[
        "PublishModelPublishModelModelChanged",
        "PublishModelPublishModelInputError",
        "PublishModelPublishModelNotFoundError",
        "PublishModelPublishModelAuthenticationError",
        "PublishModelPublishModelPermissionError",
    ] = Field(alias="publishModel", discriminator="typename__")


class PublishModelPublishModelModelChanged(BaseModel):
    typename__: Literal["ModelChanged"] = Field(alias="__typename")
    model: "PublishModelPublishModelModelChangedModel"


PublishModelPublishModelModelChangedModel = ModelInfo


class PublishModelPublishModelInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["PublishModelPublishModelInputErrorFields"]


class PublishModelPublishModelInputErrorFields(BaseModel):
    field: str
    message: str


class PublishModelPublishModelNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class PublishModelPublishModelAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class PublishModelPublishModelPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


PublishModel.model_rebuild()
PublishModelPublishModelModelChanged.model_rebuild()
PublishModelPublishModelInputError.model_rebuild()
