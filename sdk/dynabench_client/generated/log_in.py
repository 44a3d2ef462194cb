from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class LogIn(BaseModel):
    log_in: Union[
        "LogInLogInAuthPayload",
        "LogInLogInAuthenticationError",
        "LogInLogInInputError",
        "LogInLogInRateLimitedError",
    ] = Field(alias="logIn", discriminator="typename__")


class LogInLogInAuthPayload(BaseModel):
    typename__: Literal["AuthPayload"] = Field(alias="__typename")
    token: str


class LogInLogInAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class LogInLogInInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["LogInLogInInputErrorFields"]


class LogInLogInInputErrorFields(BaseModel):
    field: str
    message: str


class LogInLogInRateLimitedError(BaseModel):
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    code: str
    message: str
    retry_after_seconds: Optional[int] = Field(alias="retryAfterSeconds")


LogIn.model_rebuild()
LogInLogInInputError.model_rebuild()
