from typing import Literal, Union

from pydantic import Field

from .base_model import BaseModel


class AddContexts(BaseModel):
    add_contexts: Union[
        "AddContextsAddContextsContextsAdded",
        "AddContextsAddContextsInputError",
        "AddContextsAddContextsNotFoundError",
        "AddContextsAddContextsAuthenticationError",
        "AddContextsAddContextsPermissionError",
    ] = Field(alias="addContexts", discriminator="typename__")


class AddContextsAddContextsContextsAdded(BaseModel):
    typename__: Literal["ContextsAdded"] = Field(alias="__typename")
    count: int


class AddContextsAddContextsInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["AddContextsAddContextsInputErrorFields"]


class AddContextsAddContextsInputErrorFields(BaseModel):
    field: str
    message: str


class AddContextsAddContextsNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class AddContextsAddContextsAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class AddContextsAddContextsPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


AddContexts.model_rebuild()
AddContextsAddContextsInputError.model_rebuild()
