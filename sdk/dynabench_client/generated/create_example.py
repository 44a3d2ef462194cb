from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import (  # noqa: F401
    SubmittedExample,
    SubmittedExampleExample,
    SubmittedExamplePredictions,
)


class CreateExample(BaseModel):
    create_example: Union[
        "CreateExampleCreateExampleExampleSubmitted",
        "CreateExampleCreateExampleInputError",
        "CreateExampleCreateExampleNotFoundError",
        "CreateExampleCreateExampleConflictError",
        "CreateExampleCreateExampleDuplicateExampleError",
        "CreateExampleCreateExampleModelUnavailableError",
        "CreateExampleCreateExampleRoundClosedError",
        "CreateExampleCreateExampleRateLimitedError",
        "CreateExampleCreateExampleAuthenticationError",
        "CreateExampleCreateExamplePermissionError",
    ] = Field(alias="createExample", discriminator="typename__")


class CreateExampleCreateExampleExampleSubmitted(SubmittedExample):
    typename__: Literal["ExampleSubmitted"] = Field(alias="__typename")


class CreateExampleCreateExampleInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["CreateExampleCreateExampleInputErrorFields"]


class CreateExampleCreateExampleInputErrorFields(BaseModel):
    field: str
    message: str


class CreateExampleCreateExampleNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class CreateExampleCreateExampleConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class CreateExampleCreateExampleDuplicateExampleError(BaseModel):
    typename__: Literal["DuplicateExampleError"] = Field(alias="__typename")
    typename__: Literal["DuplicateExampleError"] = Field(alias="__typename")
    code: str
    message: str
    repeats_example_id: str = Field(alias="repeatsExampleId")
    repeats_excerpt: str = Field(alias="repeatsExcerpt")
    own: bool
    kind: str
    similarity: float


class CreateExampleCreateExampleModelUnavailableError(BaseModel):
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    code: str
    message: str


class CreateExampleCreateExampleRoundClosedError(BaseModel):
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    code: str
    message: str


class CreateExampleCreateExampleRateLimitedError(BaseModel):
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    code: str
    message: str
    retry_after_seconds: Optional[int] = Field(alias="retryAfterSeconds")


class CreateExampleCreateExampleAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class CreateExampleCreateExamplePermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


CreateExample.model_rebuild()
CreateExampleCreateExampleInputError.model_rebuild()
