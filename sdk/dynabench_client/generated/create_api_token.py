from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel


class CreateApiToken(BaseModel):
    create_api_token: Union[
        "CreateApiTokenCreateApiTokenApiTokenCreated",
        "CreateApiTokenCreateApiTokenInputError",
        "CreateApiTokenCreateApiTokenAuthenticationError",
        "CreateApiTokenCreateApiTokenPermissionError",
    ] = Field(alias="createApiToken", discriminator="typename__")


class CreateApiTokenCreateApiTokenApiTokenCreated(BaseModel):
    typename__: Literal["ApiTokenCreated"] = Field(alias="__typename")
    token: str


class CreateApiTokenCreateApiTokenInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["CreateApiTokenCreateApiTokenInputErrorFields"]


class CreateApiTokenCreateApiTokenInputErrorFields(BaseModel):
    field: str
    message: str


class CreateApiTokenCreateApiTokenAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class CreateApiTokenCreateApiTokenPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


CreateApiToken.model_rebuild()
CreateApiTokenCreateApiTokenInputError.model_rebuild()
