from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import (  # noqa: F401
    SubmittedExample,
    SubmittedExampleExample,
    SubmittedExamplePredictions,
)


class SubmitExamples(BaseModel):
    submit_examples: list[
        Annotated[
            Union[
                "SubmitExamplesSubmitExamplesExampleSubmitted",
                "SubmitExamplesSubmitExamplesInputError",
                "SubmitExamplesSubmitExamplesNotFoundError",
                "SubmitExamplesSubmitExamplesConflictError",
                "SubmitExamplesSubmitExamplesDuplicateExampleError",
                "SubmitExamplesSubmitExamplesModelUnavailableError",
                "SubmitExamplesSubmitExamplesRoundClosedError",
                "SubmitExamplesSubmitExamplesRateLimitedError",
                "SubmitExamplesSubmitExamplesAuthenticationError",
                "SubmitExamplesSubmitExamplesPermissionError",
            ],
            Field(discriminator="typename__"),
        ]
    ] = Field(alias="submitExamples")


class SubmitExamplesSubmitExamplesExampleSubmitted(SubmittedExample):
    typename__: Literal["ExampleSubmitted"] = Field(alias="__typename")


class SubmitExamplesSubmitExamplesInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["SubmitExamplesSubmitExamplesInputErrorFields"]


class SubmitExamplesSubmitExamplesInputErrorFields(BaseModel):
    field: str
    message: str


class SubmitExamplesSubmitExamplesNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class SubmitExamplesSubmitExamplesConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class SubmitExamplesSubmitExamplesDuplicateExampleError(BaseModel):
    typename__: Literal["DuplicateExampleError"] = Field(alias="__typename")
    typename__: Literal["DuplicateExampleError"] = Field(alias="__typename")
    code: str
    message: str
    repeats_example_id: str = Field(alias="repeatsExampleId")
    repeats_excerpt: str = Field(alias="repeatsExcerpt")
    own: bool
    kind: str
    similarity: float


class SubmitExamplesSubmitExamplesModelUnavailableError(BaseModel):
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    code: str
    message: str


class SubmitExamplesSubmitExamplesRoundClosedError(BaseModel):
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    code: str
    message: str


class SubmitExamplesSubmitExamplesRateLimitedError(BaseModel):
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    code: str
    message: str
    retry_after_seconds: Optional[int] = Field(alias="retryAfterSeconds")


class SubmitExamplesSubmitExamplesAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class SubmitExamplesSubmitExamplesPermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


SubmitExamples.model_rebuild()
SubmitExamplesSubmitExamplesInputError.model_rebuild()
